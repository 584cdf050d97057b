import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn


def procedural_image(x, y, seed=3):
    rng = np.random.default_rng(seed)
    img = np.zeros_like(x)
    for _ in range(6):
        cx, cy = rng.uniform(-0.7, 0.7, 2)
        s = rng.uniform(0.08, 0.3)
        img += rng.uniform(0.3, 1.0) * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * s * s))
    r = np.sqrt((x + 0.3) ** 2 + (y - 0.2) ** 2)
    img += 0.4 * np.cos(18 * r) * np.exp(-3 * r)
    img += 0.25 * np.sin(9 * x + 5 * y) * (x > 0.2)
    return img


def coords(n, offset=0.0):
    t = (np.arange(n) + 0.5 + offset) / n * 2 - 1
    X, Y = np.meshgrid(t, t, indexing="xy")
    return X, Y


class SineLayer(nn.Module):
    def __init__(self, d_in, d_out, omega0=30.0, first=False):
        super().__init__()
        self.omega0 = omega0
        self.linear = nn.Linear(d_in, d_out)
        bound = 1.0 / d_in if first else math.sqrt(6.0 / d_in) / omega0
        with torch.no_grad():
            self.linear.weight.uniform_(-bound, bound)

    def forward(self, x):
        return torch.sin(self.omega0 * self.linear(x))


class Siren(nn.Module):
    def __init__(self, hidden=64, layers=3, omega0=30.0):
        super().__init__()
        self.first = SineLayer(2, hidden, omega0, first=True)
        self.hidden_layers = tuple(SineLayer(hidden, hidden, omega0) for _ in range(layers))
        self.final = nn.Linear(hidden, 1)
        with torch.no_grad():
            b = math.sqrt(6.0 / hidden) / omega0
            self.final.weight.uniform_(-b, b)

    def forward(self, xy):
        h = self.first(xy)
        for layer in self.hidden_layers:
            h = layer(h)
        return self.final(h)


def psnr(pred, target):
    mse = torch.mean((pred - target) ** 2).item()
    peak = (target.max() - target.min()).item()
    return 10 * math.log10(peak ** 2 / mse)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--res", type=int, default=64)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, Y = coords(args.res)
    xy = torch.tensor(np.stack([X.ravel(), Y.ravel()], 1), dtype=torch.float32)
    target = torch.tensor(procedural_image(X, Y).ravel()[:, None], dtype=torch.float32)
    Xh, Yh = coords(args.res, offset=0.5)
    xy_h = torch.tensor(np.stack([Xh.ravel(), Yh.ravel()], 1), dtype=torch.float32)
    target_h = torch.tensor(procedural_image(Xh, Yh).ravel()[:, None], dtype=torch.float32)

    model = Siren(args.hidden, args.layers)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for step in range(args.steps + 1):
        loss = torch.mean((model(xy) - target) ** 2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step:4d}  mse {loss.item():.6f}  train_psnr {psnr(model(xy).detach(), target):.2f}")
    with torch.no_grad():
        final = psnr(model(xy_h), target_h)
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC psnr={final:.3f}")


if __name__ == "__main__":
    main()
