import argparse
import math

import torch
import torch.nn as nn

from rides import make_rides


class LeanGRU(nn.Module):
    def __init__(self, n_in=4, hidden=48):
        super().__init__()
        self.gru = nn.GRU(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 2)   # (sin, cos) of the lean angle

    def forward(self, x, h=None):
        out, h = self.gru(x, h)
        return self.head(out), h


def wrap(a):
    return torch.atan2(torch.sin(a), torch.cos(a))


def angle_from(sc):
    return torch.atan2(sc[..., 0], sc[..., 1])


def run_rides(model, x, y, chunk, opt=None, clip=None):
    """Stream every ride chunk by chunk, carrying the GRU state across chunks."""
    h = None
    total, count = 0.0, 0
    for s in range(0, x.shape[1], chunk):
        xc, yc = x[:, s:s + chunk], y[:, s:s + chunk]
        if h is not None:
            h = h.detach()              # truncated BPTT: keep the state, drop its history
        pred, h = model(xc, h)
        target = torch.stack([torch.sin(yc), torch.cos(yc)], -1)
        loss = ((pred - target) ** 2).mean()
        if opt is not None:
            opt.zero_grad()
            loss.backward()
            if clip is not None:
                torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            opt.step()
        err = wrap(angle_from(pred.detach()) - yc).abs()
        total += err.sum().item()
        count += err.numel()
    return total / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--chunk", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = map(torch.from_numpy, make_rides(48, 1024, seed=args.seed + 1))
    xva, yva = map(torch.from_numpy, make_rides(12, 1024, seed=606))
    model = LeanGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, len(xtr), 16):
            train_err = run_rides(model, xtr[i:i + 16], ytr[i:i + 16], args.chunk, opt, args.clip)
        model.eval()
        with torch.no_grad():
            val_err = run_rides(model, xva, yva, args.chunk)
        print(f"epoch {epoch + 1} train_mae_deg {math.degrees(train_err):.2f} val_mae_deg {math.degrees(val_err):.2f}")
    print(f"val_mae_deg={math.degrees(val_err):.3f}")


if __name__ == "__main__":
    main()
