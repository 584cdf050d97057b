import argparse

import numpy as np
import torch
import torch.nn as nn

from dsp import log_spectrum, synth_forks


def log_cosh(pred, target):
    """Smooth L1-like loss: quadratic near zero, linear in the tails."""
    d = pred - target
    return (d + nn.functional.softplus(-2.0 * d) - np.log(2.0)).mean()


class PitchNet(nn.Module):
    def __init__(self, n_bins, hidden=128):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_bins, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.out = nn.Linear(hidden, 1)

    def forward(self, spec):
        return self.out(self.body(spec))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = synth_forks(3000, args.seed)
    Xva, yva = synth_forks(600, args.seed + 100)
    Str, Sva = log_spectrum(Xtr), log_spectrum(Xva)
    mu, sd = Str.mean(0), Str.std(0) + 1e-5
    Str, Sva = torch.tensor((Str - mu) / sd), torch.tensor((Sva - mu) / sd)
    ymu, ysd = ytr.mean(), ytr.std()
    ytr_n = torch.tensor((ytr - ymu) / ysd)
    yva_t = torch.tensor(yva)

    model = PitchNet(Str.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Str))
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = log_cosh(model(Str[idx]), ytr_n[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(Sva).squeeze(-1) * ysd + ymu
        r2 = 1 - ((pred - yva_t) ** 2).sum() / ((yva_t - yva_t.mean()) ** 2).sum()
        cents = 1200 * (pred - yva_t).abs().median()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1}  loss {loss.item():.4f}  val_r2 {r2:.4f}  median_err {cents:.0f} cents")
    print(f"val_r2={r2.item():.4f}")


if __name__ == "__main__":
    main()
