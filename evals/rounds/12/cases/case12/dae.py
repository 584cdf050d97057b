#!/usr/bin/env python
"""Denoising autoencoder for tabular rows with swap noise (Porto-Seguro style).

Each cell is replaced, with probability `swap_p`, by the value of the same
column in another random row. The network sees the corrupted row and must
reconstruct the clean one. Reports reconstruction RMSE on the swapped cells
of held-out rows (standardized units; predicting the column mean scores ~1.0).
"""
import argparse
import json
import time

import numpy as np
import torch
from torch import nn


def synth_table(n_rows, n_cols, rank, seed):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n_rows, rank))
    load = rng.normal(size=(rank, n_cols))
    X = np.tanh(z @ load / np.sqrt(rank)) * 2 + 0.3 * (z[:, :1] ** 2) + rng.normal(0, 0.15, (n_rows, n_cols))
    # a few skewed columns like amounts / counts
    X[:, :3] = np.exp(X[:, :3] / 2)
    return X.astype(np.float32)


@torch.no_grad()
def swap_noise(x, p, generator=None):
    """Return (corrupted copy of x, bool mask of swapped cells)."""
    n, d = x.shape
    swapped = torch.rand(n, d, generator=generator) < p
    donor_rows = torch.randint(0, n, (n, d), generator=generator)
    donors = x[donor_rows, torch.arange(d).expand(n, d)]
    return torch.where(swapped, donors, x), swapped


class DAE(nn.Module):
    def __init__(self, d, hidden, bottleneck):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, hidden), nn.ReLU(), nn.Linear(hidden, bottleneck), nn.ReLU())
        self.decoder = nn.Sequential(nn.Linear(bottleneck, hidden), nn.ReLU(), nn.Linear(hidden, d))

    def forward(self, x):
        return self.decoder(self.encoder(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--params", default="params.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    P = json.load(open(args.params))
    torch.manual_seed(args.seed)
    t0 = time.time()

    X = synth_table(P["rows"], P["cols"], P["rank"], seed=args.seed)
    X[:, :3] = np.log1p(X[:, :3])
    n_tr = int(0.8 * len(X))
    mu, sd = X[:n_tr].mean(0), X[:n_tr].std(0)
    X = torch.from_numpy((X - mu) / sd)
    Xtr, Xva = X[:n_tr], X[n_tr:]
    g = torch.Generator().manual_seed(args.seed + 1)
    Xva_noisy, va_mask = swap_noise(Xva, P["swap_p"], g)

    model = DAE(P["cols"], P["hidden"], P["bottleneck"])
    opt = torch.optim.AdamW(model.parameters(), lr=P["lr"], weight_decay=P["weight_decay"])
    mse = nn.MSELoss(reduction="none")

    for epoch in range(P["epochs"]):
        model.train()
        perm = torch.randperm(n_tr)
        losses, norms = [], []
        for i in range(0, n_tr, P["batch_size"]):
            clean = Xtr[perm[i:i + P["batch_size"]]]
            noisy, swapped = swap_noise(clean, P["swap_p"])
            recon = model(noisy)
            per_cell = mse(recon, clean)
            # corrupted cells are the interesting ones; weight them up
            weights = 1.0 + (P["swapped_weight"] - 1.0) * swapped.float()
            loss = (per_cell * weights).sum() / weights.sum()
            opt.zero_grad()
            loss.backward()
            norms.append(float(nn.utils.clip_grad_norm_(model.parameters(), P["clip"])))
            opt.step()
            losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            err = (model(Xva_noisy) - Xva)[va_mask]
            rmse = err.pow(2).mean().sqrt().item()
        print(f"epoch {epoch + 1:2d} loss={np.mean(losses):.4f} grad_norm_max={max(norms):.2f} "
              f"val_swapped_rmse={rmse:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC val_swapped_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
