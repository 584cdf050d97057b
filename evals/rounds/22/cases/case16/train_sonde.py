"""GRU over the descending profile -> surface (u, v)."""
import argparse

import numpy as np
import torch
from torch import nn

from sonde_sim import simulate

CHANNEL_SCALE = np.array([30.0, 30.0, 20.0, 50.0], dtype=np.float32)


class ProfileGRU(nn.Module):
    def __init__(self, n_channels=4, hidden=48):
        super().__init__()
        self.inp = nn.Linear(n_channels, hidden)
        self.gru = nn.GRU(hidden, hidden, num_layers=1)        # (time, batch, feat)
        self.out = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, profile):
        # profile: (batch, levels, channels); the GRU wants levels first
        seq = profile.reshape(profile.size(1), profile.size(0), profile.size(2))
        h_seq, _ = self.gru(torch.relu(self.inp(seq)))
        return self.out(h_seq[-1])


def rmse(pred, y):
    return torch.sqrt(((pred - y) ** 2).sum(1).mean()).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--n-train", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    ptr, ytr = simulate(args.n_train, seed=1)
    pva, yva = simulate(800, seed=2)
    ptr, pva = ptr / CHANNEL_SCALE, pva / CHANNEL_SCALE
    ptr, ytr, pva, yva = map(torch.from_numpy, (ptr, ytr, pva, yva))
    y_scale = 20.0

    model = ProfileGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ptr))
        for s in range(0, len(ptr), args.batch_size):
            idx = perm[s:s + args.batch_size]
            loss = nn.functional.mse_loss(model(ptr[idx]), ytr[idx] / y_scale)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        model.eval()
        with torch.no_grad():
            score = rmse(model(pva) * y_scale, yva)
        print(f"epoch {epoch + 1:2d}  loss {loss.item():.4f}  val_rmse_ms {score:.3f}")
    print(f"val_rmse_ms={score:.4f}")


if __name__ == "__main__":
    main()
