#!/usr/bin/env python
"""Train TinySegNet to segment dental fillings; reports mean per-image Dice on val."""
import argparse
import time
from dataclasses import dataclass, fields

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import TinySegNet
from synth import make_dataset


@dataclass
class Config:
    n_train: int = 800
    n_val: int = 200
    epochs: int = 8
    batch_size: int = 16
    lr: float = 2e-3
    channels: int = 12
    seed: int = 0


def dice_per_image(logits, target, eps=1e-6):
    pred = (torch.sigmoid(logits) > 0.5).float()
    inter = (pred * target).sum(dim=(1, 2, 3))
    denom = pred.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 2 * inter / (denom + eps)


def soft_dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * target).sum(dim=(1, 2, 3))
    denom = p.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (denom + eps)).mean()


def evaluate(model, loader):
    model.eval()
    scores = []
    with torch.no_grad():
        for x, y in loader:
            scores.append(dice_per_image(model(x), y))
    model.train()
    return torch.cat(scores).mean().item()


def main():
    cfg = Config()
    ap = argparse.ArgumentParser()
    for f in fields(Config):
        ap.add_argument(f"--{f.name.replace('_', '-')}", type=f.type, default=f.default)
    cfg = Config(**vars(ap.parse_args()))

    torch.manual_seed(cfg.seed)
    t0 = time.time()
    xtr, ytr = make_dataset(cfg.n_train, seed=cfg.seed)
    xva, yva = make_dataset(cfg.n_val, seed=cfg.seed + 1000)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)),
                          batch_size=cfg.batch_size, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(xva), torch.from_numpy(yva)),
                        batch_size=64)
    print(f"fillings present in {(ytr.sum((1, 2, 3)) > 0).mean():.0%} of train images")

    model = TinySegNet(cfg.channels)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    pos_weight = torch.tensor(8.0)
    for epoch in range(cfg.epochs):
        run = 0.0
        for x, y in train_dl:
            logits = model(x)
            loss = F.binary_cross_entropy_with_logits(logits, y, pos_weight=pos_weight) \
                + soft_dice_loss(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item()
        dice = evaluate(model, val_dl)
        print(f"epoch {epoch + 1} loss={run / len(train_dl):.4f} val_dice={dice:.4f}")
    print(f"time {time.time() - t0:.1f}s")
    print(f"METRIC val_dice={dice:.4f}")


if __name__ == "__main__":
    main()
