#!/usr/bin/env python
"""Train the pair classifier on the toy NLI corpus."""
import argparse
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from model import PairClassifier
from nli_data import LABELS, VOCAB, make_pairs, pad


def loaders(n_train, n_dev, batch_size, seed):
    p, h, y = make_pairs(n_train + n_dev, seed)
    P, H, Y = torch.from_numpy(pad(p, 8)), torch.from_numpy(pad(h, 4)), torch.from_numpy(y)
    tr = TensorDataset(P[:n_train], H[:n_train], Y[:n_train])
    dv = TensorDataset(P[n_train:], H[n_train:], Y[n_train:])
    return DataLoader(tr, batch_size=batch_size, shuffle=True), DataLoader(dv, batch_size=512)


def evaluate(model, dl):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for p, h, y in dl:
            correct += (model(p, h).argmax(-1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--n-train", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    t0 = time.time()
    train_dl, dev_dl = loaders(args.n_train, 2000, args.batch_size, args.seed)
    model = PairClassifier(VOCAB, n_labels=len(LABELS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    ce = nn.CrossEntropyLoss()
    for ep in range(args.epochs):
        model.train()
        tot = 0.0
        for p, h, y in train_dl:
            opt.zero_grad()
            loss = ce(model(p, h), y)
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        acc = evaluate(model, dev_dl)
        print(f"ep {ep + 1:02d} loss={tot / len(train_dl.dataset):.4f} dev_acc={acc:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC dev_acc={acc:.4f}")


if __name__ == "__main__":
    main()
