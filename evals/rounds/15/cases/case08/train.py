import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import build_datasets
from ecg_sim import make_recordings
from model import EcgCNN


def balanced_accuracy(pred, y):
    accs = [(pred[y == c] == c).float().mean().item() for c in (0, 1)]
    return sum(accs) / 2


def evaluate(model, loader):
    model.eval()
    preds, ys = [], []
    with torch.no_grad():
        for x, y in loader:
            preds.append(model(x).argmax(1))
            ys.append(y)
    model.train()
    return balanced_accuracy(torch.cat(preds), torch.cat(ys))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    recs, labels = make_recordings(60, 30, seed=args.seed + 3)
    vrecs, vlabels = make_recordings(20, 30, seed=2024)
    train_ds, val_ds = build_datasets(recs, labels, vrecs, vlabels)
    print(f"{len(train_ds)} train windows / {len(val_ds)} val windows")

    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True, num_workers=args.workers,
                          generator=torch.Generator().manual_seed(args.seed), persistent_workers=args.workers > 0)
    val_dl = DataLoader(val_ds, batch_size=128, num_workers=0)

    model = EcgCNN()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        tot, n = 0.0, 0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
            n += len(y)
        print(f"epoch {epoch + 1} train_loss {tot / n:.4f} val_bacc {evaluate(model, val_dl):.4f}")
    print(f"val_balanced_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
