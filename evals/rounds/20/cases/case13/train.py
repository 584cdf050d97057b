import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from dataset import SwallowWindows
from emg import make_sessions


class SwallowNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.c1 = nn.Conv1d(1, ch, 7, padding=3)
        self.c2 = nn.Conv1d(ch, ch, 7, padding=3)
        self.fc = nn.Linear(2 * ch, 2)

    def forward(self, x):
        h = F.relu(self.c1(x))
        h = F.relu(self.c2(F.max_pool1d(h, 2)))
        return self.fc(torch.cat([h.mean(-1), h.amax(-1)], 1))


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum().item()
    fp = ((pred == 1) & (y == 0)).sum().item()
    fn = ((pred == 0) & (y == 1)).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr, str_ = make_sessions(10, 200, seed=args.seed)
    Xva, yva, sva = make_sessions(4, 200, seed=args.seed + 99)
    train_ds = SwallowWindows(Xtr, ytr, str_)
    val_ds = SwallowWindows(Xva, yva, sva, stats=train_ds.stats)

    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True, num_workers=2)
    val_dl = DataLoader(val_ds, batch_size=256, num_workers=2)

    model = SwallowNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 4 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f}")

    model.eval()
    preds, ys = [], []
    with torch.no_grad():
        for xb, yb in val_dl:
            preds.append(model(xb).argmax(1))
            ys.append(yb)
    pred, y = torch.cat(preds), torch.cat(ys)
    print(f"val_acc={(pred == y).float().mean().item():.4f}")
    print(f"val_f1={f1_score(pred, y):.4f}")


if __name__ == "__main__":
    main()
