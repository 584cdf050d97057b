import argparse
import math

import numpy as np
import torch
import torch.nn as nn


def wrap(a):
    return torch.atan2(torch.sin(a), torch.cos(a))


def logs(n, rng):
    awa = rng.uniform(-math.pi, math.pi, n)  # apparent wind angle
    heel = rng.uniform(-0.4, 0.4, n)
    speed = rng.uniform(1, 7, n)
    tiller = awa + 0.8 * heel + 0.1 * speed + 0.05 * rng.standard_normal(n)
    x = np.stack([np.sin(awa), np.cos(awa), heel * 3, speed / 4 - 1], 1).astype(np.float32)
    return torch.from_numpy(x), wrap(torch.from_numpy(tiller.astype(np.float32)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--clip", type=float, default=50.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    xtr, atr = logs(4000, rng)
    xva, ava = logs(800, rng)
    net = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 2))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    history = []
    for ep in range(args.epochs):
        perm = torch.randperm(len(xtr))
        max_norm = 0.0
        for i in range(0, len(xtr), 128):
            b = perm[i:i + 128]
            target = torch.stack([torch.sin(atr[b]), torch.cos(atr[b])], 1)
            loss = ((net(xtr[b]) - target) ** 2).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            # safety net against the occasional gust outlier; norms normally sit far below it
            norm = torch.nn.utils.clip_grad_norm_(net.parameters(), args.clip)
            max_norm = max(max_norm, norm.item())
            opt.step()
        history.append(loss.item())
        if ep % 10 == 0:
            print(f"epoch {ep} loss {loss.item():.4f} max_grad_norm {max_norm:.2f}")
    with torch.no_grad():
        sc = net(xva)
        pred = torch.atan2(sc[:, 0], sc[:, 1])
        err = wrap(pred - ava).abs().mean().item()
    print(f"val_angle_mae_deg={math.degrees(err):.2f}")


if __name__ == "__main__":
    main()
