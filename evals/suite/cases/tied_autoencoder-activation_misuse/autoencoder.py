"""Tied-weight linear autoencoder on 16-d signals that live near a 3-d subspace.

Gradient accumulation: ACCUM_STEPS micro-batches per optimizer step, the loss of each
micro-batch divided by ACCUM_STEPS so one step sees the mean over the effective batch.
OneCycleLR advances once per optimizer step (not per micro-batch).
"""
import argparse
import math
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

DIM, LATENT = 16, 3


def make_signals(n, seed):
    g = torch.Generator().manual_seed(seed)
    mixing = torch.randn(LATENT, DIM, generator=torch.Generator().manual_seed(0)) / math.sqrt(LATENT)
    z = torch.randn(n, LATENT, generator=g)
    return z @ mixing + 0.05 * torch.randn(n, DIM, generator=g)


class TiedAutoencoder(nn.Module):
    def __init__(self, dim=DIM, code=4):
        super().__init__()
        self.W = nn.Parameter(torch.randn(code, dim) / math.sqrt(dim))
        self.b_enc = nn.Parameter(torch.zeros(code))
        self.b_dec = nn.Parameter(torch.zeros(dim))

    def encode(self, x):
        return x @ self.W.t() + self.b_enc

    def forward(self, x):
        return torch.sigmoid(self.encode(x) @ self.W + self.b_dec)  # decoder reuses the encoder weight


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--micro-batch", type=int, default=16)
    ap.add_argument("--accum-steps", type=int, default=4)
    ap.add_argument("--max-lr", type=float, default=0.05)
    args = ap.parse_args()

    random.seed(5)
    np.random.seed(5)
    torch.manual_seed(5)

    train_x = make_signals(2048, seed=1)
    val_x = make_signals(512, seed=2)
    loader = DataLoader(TensorDataset(train_x), batch_size=args.micro_batch, shuffle=True, drop_last=True)

    model = TiedAutoencoder()
    mse = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.max_lr)
    steps_per_epoch = len(loader) // args.accum_steps
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=args.max_lr, epochs=args.epochs, steps_per_epoch=steps_per_epoch)

    baseline = val_x.var(dim=0, unbiased=False).mean().item()
    print(f"val variance (mse of predicting the mean): {baseline:.4f}")

    optimizer.zero_grad()
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for i, (x,) in enumerate(loader):
            loss = mse(model(x), x) / args.accum_steps
            loss.backward()
            running += loss.item()
            if (i + 1) % args.accum_steps == 0:
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
        print(f"epoch {epoch}: train mse {running / steps_per_epoch:.4f}  lr {scheduler.get_last_lr()[0]:.4f}")

    model.eval()
    with torch.no_grad():
        val_mse = mse(model(val_x), val_x).item()
    print(f"METRIC val_mse={val_mse:.4f}")


if __name__ == "__main__":
    main()
