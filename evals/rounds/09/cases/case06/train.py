import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import IGNORE, make_datasets


class ScanGRU(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(2, 16)
        self.rnn = nn.GRU(16, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 2)

    def forward(self, cells):
        h, _ = self.rnn(self.embed(cells))
        return self.out(h)


def evaluate(model, loader):
    model.eval()
    hit = total = 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(-1)
            keep = y != IGNORE
            hit += (pred[keep] == y[keep]).sum().item()
            total += keep.sum().item()
    model.train()
    return hit / max(total, 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rule", type=int, default=110)
    p.add_argument("--width", type=int, default=24)
    p.add_argument("--radius", type=int, default=1)
    p.add_argument("--n-train", type=int, default=3000)
    p.add_argument("--n-val", type=int, default=600)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    train_ds, val_ds = make_datasets(args.n_train, args.n_val, args.width,
                                     args.rule, args.radius, args.seed)
    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = ScanGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss(ignore_index=IGNORE)

    t0 = time.time()
    for epoch in range(args.epochs):
        running = 0.0
        for x, y in train_dl:
            logits = model(x)
            loss = crit(logits.reshape(-1, 2), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(x)
        acc = evaluate(model, val_dl)
        print(f"epoch {epoch + 1:2d}  train_loss {running / len(train_ds):.4f}  "
              f"val_cell_acc {acc:.4f}  ({time.time() - t0:.1f}s)")

    print(f"val_cell_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
