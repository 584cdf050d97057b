import argparse
import math

import numpy as np
import torch
import torch.nn as nn


def simulate(n_steps, seed):
    rng = np.random.default_rng(seed)
    heading = rng.uniform(0, 2 * np.pi)
    feats, heads = [], []
    rudder = 0.0
    for _ in range(n_steps):
        rudder = 0.9 * rudder + rng.normal(0, 0.08)
        asym = rng.normal(0, 0.05)
        yaw = 0.6 * rudder + 0.4 * asym
        heading = (heading + yaw) % (2 * np.pi)
        feats.append([rudder, asym, yaw + rng.normal(0, 0.01), math.sin(heading) + rng.normal(0, 0.3), math.cos(heading) + rng.normal(0, 0.3)])
        heads.append(heading)
    return torch.tensor(feats, dtype=torch.float32), torch.tensor(heads, dtype=torch.float32)


class HeadingGRU(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.gru = nn.GRU(5, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 2)   # (sin, cos)

    def forward(self, x, h=None):
        y, h = self.gru(x, h)
        return self.out(y), h


def angle_error_deg(pred_sc, theta):
    pred = torch.atan2(pred_sc[..., 0], pred_sc[..., 1])
    d = torch.remainder(pred - theta + math.pi, 2 * math.pi) - math.pi
    return d.abs().mean().item() * 180 / math.pi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--chunk", type=int, default=25)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    # 8 parallel training streams, one validation stream
    streams = [simulate(1500, args.seed * 100 + k) for k in range(8)]
    x = torch.stack([s[0] for s in streams])
    th = torch.stack([s[1] for s in streams])
    target = torch.stack([torch.sin(th), torch.cos(th)], -1)
    vx, vth = simulate(1500, args.seed * 100 + 99)

    model = HeadingGRU()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        model.train()
        h = None
        for s in range(0, x.shape[1], args.chunk):
            pred, h = model(x[:, s:s + args.chunk], h)
            loss = nn.functional.mse_loss(pred, target[:, s:s + args.chunk])
            opt.zero_grad()
            loss.backward()
            opt.step()
            h = h.detach()   # carry state across chunks, truncate the graph
        model.eval()
        with torch.no_grad():
            vp, _ = model(vx.unsqueeze(0))
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_err {angle_error_deg(vp[0], vth):.2f}")
    print(f"val_heading_err_deg={angle_error_deg(vp[0], vth):.3f}")


if __name__ == "__main__":
    main()
