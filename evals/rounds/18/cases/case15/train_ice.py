import argparse

import torch
import torch.nn as nn

from lakes import simulate_winters


class IceGRU(nn.Module):
    def __init__(self, n_in=3, hidden=48):
        super().__init__()
        self.gru = nn.GRU(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x, h=None):
        out, h = self.gru(x, h)
        return self.head(out).squeeze(-1), h


def run_season(model, X, chunk):
    """Roll the whole season in chunks (evaluation: no truncation issues, no grads)."""
    h, preds = None, []
    for s in range(0, X.size(1), chunk):
        p, h = model(X[:, s:s + chunk], h)
        preds.append(p)
    return torch.cat(preds, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--chunk", type=int, default=30)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--clip", type=float, default=50.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    Xtr, ytr = map(torch.from_numpy, simulate_winters(320, seed=1))
    Xva, yva = map(torch.from_numpy, simulate_winters(80, seed=2))
    scale = 50.0  # cm; keeps targets O(1)

    model = IceGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    max_norm_seen = 0.0
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, len(Xtr), 32):
            xb, yb = Xtr[i:i + 32], ytr[i:i + 32] / scale
            h = None
            for s in range(0, xb.size(1), args.chunk):
                if h is not None:
                    h = h.detach()  # truncated BPTT: keep the state, drop the old graph
                pred, h = model(xb[:, s:s + args.chunk], h)
                loss = nn.functional.mse_loss(pred, yb[:, s:s + args.chunk])
                opt.zero_grad()
                loss.backward()
                norm = nn.utils.clip_grad_norm_(model.parameters(), args.clip)
                max_norm_seen = max(max_norm_seen, norm.item())
                opt.step()
        model.eval()
        with torch.no_grad():
            rmse = ((run_season(model, Xva, args.chunk) * scale - yva) ** 2).mean().sqrt().item()
        print(f"epoch {epoch + 1} last_loss={loss.item():.4f} max_grad_norm={max_norm_seen:.2f} val_rmse_cm={rmse:.3f}")
    print(f"val_rmse_cm={rmse:.3f}")


if __name__ == "__main__":
    main()
