import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from eeg import STAGES, record_cohort


def night_stats(sig):
    return float(sig.mean()), float(sig.std()) + 1e-6


class EpochDataset(Dataset):
    """All epochs of a list of nights, normalised night by night.

    If `stats` is given those (mean, std) are used for every night instead.
    """

    def __init__(self, nights, stats=None):
        xs, ys = [], []
        for sig, stages in nights:
            mean, std = stats if stats is not None else night_stats(sig)
            xs.append((sig - mean) / std)
            ys.append(stages)
        self.x = torch.from_numpy(np.concatenate(xs))[:, None]
        self.y = torch.from_numpy(np.concatenate(ys))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def pooled_stats(nights):
    allsig = np.concatenate([s for s, _ in nights])
    return night_stats(allsig)


class StageCNN(nn.Module):
    def __init__(self, ch=24):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, ch, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(ch, ch, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(ch, ch, 7, padding=3), nn.ReLU(),
        )
        self.fc = nn.Linear(2 * ch, len(STAGES))

    def forward(self, x):
        h = self.conv(x)
        h = torch.cat([h.mean(-1), h.amax(-1)], 1)
        return self.fc(h)


def accuracy(model, loader):
    model.eval()
    hit = n = 0
    with torch.no_grad():
        for x, y in loader:
            hit += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--nights", type=int, default=24)
    ap.add_argument("--epochs-per-night", type=int, default=150)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    nights = record_cohort(args.nights, args.epochs_per_night, seed=123)
    n_val = args.nights // 4
    train_nights, val_nights = nights[n_val:], nights[:n_val]

    train_ds = EpochDataset(train_nights)
    # validation uses the statistics of the training recordings
    val_ds = EpochDataset(val_nights, stats=pooled_stats(train_nights))

    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True, num_workers=2, persistent_workers=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = StageCNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        tot = 0.0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        print(f"epoch {epoch + 1} loss {tot / len(train_ds):.4f} val_acc {accuracy(model, val_dl):.4f}")

    print(f"val_acc={accuracy(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
