import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from flights import STEPS, simulate


class BurstForecaster(nn.Module):
    def __init__(self, n_in=4, hidden=48):
        super().__init__()
        self.gru = nn.GRU(n_in, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, h=None):
        y, h = self.gru(x, h)
        return self.out(y).squeeze(-1), h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--chunk", type=int, default=30)
    ap.add_argument("--clip", type=float, default=50.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)    # tiny GRU: extra threads only add overhead

    Xtr, ytr = map(torch.from_numpy, simulate(1200, seed=args.seed))
    Xva, yva = map(torch.from_numpy, simulate(300, seed=args.seed + 1))
    y_mu, y_sd = ytr.mean(), ytr.std()

    model = BurstForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    max_norm_seen = 0.0
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            j = perm[i:i + 64]
            h = None
            for s in range(0, STEPS, args.chunk):
                if h is not None:
                    h = h.detach()          # truncated BPTT: keep the state, drop the history
                pred, h = model(Xtr[j, s:s + args.chunk], h)
                loss = F.mse_loss(pred, (ytr[j, s:s + args.chunk] - y_mu) / y_sd)
                opt.zero_grad()
                loss.backward()
                norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
                max_norm_seen = max(max_norm_seen, norm.item())
                opt.step()
        model.eval()
        with torch.no_grad():
            pred, _ = model(Xva)
            mae = ((pred * y_sd + y_mu) - yva)[:, STEPS // 2:].abs().mean().item()
        if (epoch + 1) % 4 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f} max_grad_norm {max_norm_seen:.2f} val_mae_km {mae:.3f}")
    print(f"val_mae_km={mae:.4f}")


if __name__ == "__main__":
    main()
