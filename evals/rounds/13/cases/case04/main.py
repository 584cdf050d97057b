import argparse

import numpy as np
import numpy.ma as ma
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from sensors import simulate_bays


class BayWindows(Dataset):
    def __init__(self, readings: ma.MaskedArray, occupancy):
        self.values = torch.from_numpy(readings.filled(0.0))
        self.mask = torch.from_numpy(ma.getmaskarray(readings))
        self.labels = torch.from_numpy(occupancy).float()

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        online = (~self.mask[i]).float()
        x = torch.stack([self.values[i] * online, online])   # [2, T]
        return x, self.labels[i], self.mask[i]


class TemporalConvNet(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(2, ch, 5, padding=2), nn.ReLU(),
            nn.Conv1d(ch, ch, 5, padding=4, dilation=2), nn.ReLU(),
            nn.Conv1d(ch, ch, 5, padding=8, dilation=4), nn.ReLU(),
            nn.Conv1d(ch, 1, 1),
        )

    def forward(self, x):
        return self.body(x).squeeze(1)        # logits [B, T]


def evaluate(model, loader):
    model.eval()
    hits = count = 0
    with torch.no_grad():
        for x, y, mask in loader:
            online = ~mask
            pred = (model(x) > 0).float()
            hits += ((pred == y) & online).sum().item()
            count += online.sum().item()
    model.train()
    return hits / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--bays", type=int, default=600)
    ap.add_argument("--minutes", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    readings, occ = simulate_bays(args.bays, args.minutes, seed=args.seed)
    n_val = args.bays // 5
    train_ds = BayWindows(readings[n_val:], occ[n_val:])
    val_ds = BayWindows(readings[:n_val], occ[:n_val])
    print(f"offline fraction: {ma.getmaskarray(readings).mean():.3f}")

    train_dl = DataLoader(train_ds, batch_size=32, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=128)

    model = TemporalConvNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        total = 0.0
        for x, y, mask in train_dl:
            logits = model(x)
            per_minute = F.binary_cross_entropy_with_logits(logits, y, reduction="none")
            weight = mask.float()
            loss = (per_minute * weight).sum() / weight.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch + 1:2d}  loss {total / len(train_dl):.4f}  val_acc {evaluate(model, val_dl):.4f}")

    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
