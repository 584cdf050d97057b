#!/usr/bin/env python
"""3-class sentiment with a bag of embeddings and dropout."""
import argparse
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from corpus import N_CLASSES, VOCAB_SIZE, make_reviews
from model import BagOfEmbeddings


class EvalCallback:
    """Runs the dev set after every epoch and keeps the best score."""

    def __init__(self, loader):
        self.loader = loader
        self.best = 0.0
        self.last = 0.0

    def on_epoch_end(self, model, epoch):
        model.eval
        correct = total = 0
        with torch.no_grad():
            for xb, yb in self.loader:
                correct += (model(xb).argmax(1) == yb).sum().item()
                total += len(yb)
        self.last = correct / total
        self.best = max(self.best, self.last)
        print(f"  [dev] epoch {epoch} acc={self.last:.4f} best={self.best:.4f}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--dropout", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()

    Xtr, ytr = make_reviews(8000, seed=args.seed)
    Xdv, ydv = make_reviews(2000, seed=args.seed + 50)
    print("label counts (train):", torch.bincount(torch.from_numpy(ytr)).tolist())
    train_dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                          batch_size=64, shuffle=True)
    dev_dl = DataLoader(TensorDataset(torch.from_numpy(Xdv), torch.from_numpy(ydv)), batch_size=256)

    model = BagOfEmbeddings(VOCAB_SIZE, n_classes=N_CLASSES, dropout=args.dropout)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    callback = EvalCallback(dev_dl)
    for epoch in range(1, args.epochs + 1):
        model.train()
        running = 0.0
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} train_loss={running / len(train_dl):.4f}")
        callback.on_epoch_end(model, epoch)
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC dev_acc={callback.last:.4f}")


if __name__ == "__main__":
    main()
