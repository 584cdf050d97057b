import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def buoy_windows(n, T=64, fs=2.0, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(T) / fs
    period = rng.uniform(5.0, 16.0, n)
    height = rng.uniform(0.5, 4.0, n)
    phase = rng.uniform(0, 2 * np.pi, n)
    wind_p = rng.uniform(2.0, 4.0, n)
    x = (height[:, None] / 2) * np.sin(2 * np.pi * t[None] / period[:, None] + phase[:, None])
    x += 0.3 * np.sin(2 * np.pi * t[None] / wind_p[:, None] + rng.uniform(0, 6.3, (n, 1)))
    x += rng.normal(0, 0.1, x.shape)
    return x.astype(np.float32)[:, None, :], period.astype(np.float32), height.astype(np.float32)


class Encoder(nn.Module):
    def __init__(self, ch=24):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, ch, 9, padding=4), nn.ReLU(),
            nn.Conv1d(ch, ch, 9, padding=4, dilation=1), nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(ch, ch, 9, padding=8, dilation=2), nn.ReLU(),
        )
        self.proj = nn.Linear(ch * 32, 64)

    def forward(self, x):
        return F.relu(self.proj(self.net(x).flatten(1)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--aux-weight", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ptr, htr = map(torch.from_numpy, buoy_windows(3000, seed=args.seed))
    Xva, pva, hva = map(torch.from_numpy, buoy_windows(600, seed=args.seed + 5))
    p_mu, p_sd = ptr.mean(), ptr.std()

    enc = Encoder()
    period_head = nn.Linear(64, 1)
    height_head = nn.Linear(64, 1)
    opt_heads = torch.optim.Adam(list(period_head.parameters()) + list(height_head.parameters()), lr=3e-3)
    opt_enc = torch.optim.Adam(enc.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            j = perm[i:i + 64]
            z = enc(Xtr[j])
            loss_p = F.mse_loss(period_head(z).squeeze(1), (ptr[j] - p_mu) / p_sd)
            loss_h = F.mse_loss(height_head(z).squeeze(1), htr[j])
            loss = loss_p + args.aux_weight * loss_h

            opt_heads.zero_grad()
            loss.backward()
            opt_heads.step()
            opt_enc.zero_grad()
            opt_enc.step()
        if (epoch + 1) % 5 == 0:
            with torch.no_grad():
                mae = ((period_head(enc(Xva)).squeeze(1) * p_sd + p_mu) - pva).abs().mean().item()
            print(f"epoch {epoch + 1} loss {loss.item():.4f} val_period_mae {mae:.3f}")

    with torch.no_grad():
        pred = period_head(enc(Xva)).squeeze(1) * p_sd + p_mu
    print(f"val_height_mae={(height_head(enc(Xva)).squeeze(1) - hva).abs().mean().item():.3f}")
    print(f"val_period_mae={(pred - pva).abs().mean().item():.4f}")


if __name__ == "__main__":
    main()
