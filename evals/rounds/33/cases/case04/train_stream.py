import argparse
import math

import numpy as np
import torch
import torch.nn as nn


def river_session(T, seed):
    g = np.random.default_rng(seed)
    imbalance = np.cumsum(g.normal(0, 0.05, T)).clip(-1, 1)
    rudder = np.sin(np.arange(T) / 40.0) * 0.6 + g.normal(0, 0.05, T)
    turn_rate = 0.15 * imbalance + 0.2 * rudder
    # heading relative to the course line 10 strokes ago (what the steerer corrects)
    c = np.concatenate([[0.0], np.cumsum(turn_rate)])
    heading = c[1:] - c[np.maximum(np.arange(1, T + 1) - 10, 0)]
    heading = (heading + math.pi) % (2 * math.pi) - math.pi
    obs = np.stack([imbalance, rudder, g.normal(0, 0.1, T)], 1)
    return torch.tensor(obs, dtype=torch.float32), torch.tensor(heading, dtype=torch.float32)


class Steer(nn.Module):
    def __init__(self, h=48):
        super().__init__()
        self.rnn = nn.GRU(3, h, batch_first=True)
        self.out = nn.Linear(h, 2)           # (cos, sin) of the heading

    def forward(self, x, hidden=None):
        y, hidden = self.rnn(x, hidden)
        return self.out(y), hidden


def angle_error(pred_cs, theta):
    est = torch.atan2(pred_cs[..., 1], pred_cs[..., 0])
    d = torch.remainder(est - theta + math.pi, 2 * math.pi) - math.pi
    return d.abs()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chunks", type=int, default=240)
    ap.add_argument("--bptt", type=int, default=50)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    streams = [river_session(a.bptt * a.chunks // 8, seed=s) for s in range(8)]
    x = torch.stack([s[0] for s in streams])       # (8 boats, T, 3)
    th = torch.stack([s[1] for s in streams])
    target = torch.stack([th.cos(), th.sin()], -1)
    xv, thv = river_session(3000, seed=99)
    model = Steer()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(a.epochs):
        hidden = None
        for t0 in range(0, x.shape[1], a.bptt):
            xb, yb = x[:, t0:t0 + a.bptt], target[:, t0:t0 + a.bptt]
            if hidden is not None:
                hidden = hidden.detach()         # truncated BPTT: keep state, cut the graph
            pred, hidden = model(xb, hidden)
            loss = nn.functional.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=50.0)
            opt.step()
        print(f"epoch {epoch} loss={loss.item():.4f} grad_norm={float(gn):.3f}")
    with torch.no_grad():
        pred, _ = model(xv[None])
        err = angle_error(pred[0], thv).mean().item()
    print(f"val_heading_err_deg={math.degrees(err):.2f}")


if __name__ == "__main__":
    main()
