"""Marimba bar pitch regression from 64-bin magnitude envelopes."""
import argparse
import numpy as np
import torch
import torch.nn as nn


def make_strikes(n, rng):
    semis = rng.uniform(0, 36, size=n)
    f0 = 130.8 * 2 ** (semis / 12)
    bins = np.linspace(100, 2000, 64)
    spec = np.zeros((n, 64))
    for k, ratio in enumerate([1.0, 4.0, 9.2]):  # marimba bars: tuned 1st and 2nd overtones
        spec += (0.8 ** k) * np.exp(-((bins[None] - ratio * f0[:, None]) / 40.0) ** 2)
    spec += 0.05 * rng.standard_normal(spec.shape)
    return spec.astype(np.float32), semis.astype(np.float32)


class PitchNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(64, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(self.body(x))


def semitone_loss(pred, target):
    # plain squared error in semitones; kept as a helper so we can swap in cents later
    return ((pred - target) ** 2).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    xtr, ytr = make_strikes(3000, rng)
    xva, yva = make_strikes(600, rng)
    xtr, ytr, xva, yva = map(torch.from_numpy, (xtr, ytr, xva, yva))
    mu, sd = ytr.mean(), ytr.std()
    model = PitchNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for ep in range(args.epochs):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(xtr), 100):
            idx = perm[i:i + 100]
            pred = model(xtr[idx])
            loss = semitone_loss(pred, (ytr[idx] - mu) / sd)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 10 == 0:
            print(f"epoch {ep} loss {loss.item():.4f}")
    with torch.no_grad():
        p = model(xva).squeeze(-1) * sd + mu
        mae = (p - yva).abs().mean().item()
    print(f"val_mae_semitones={mae:.3f}")


if __name__ == "__main__":
    main()
