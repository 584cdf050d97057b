#!/usr/bin/env python
"""Keyword-command classifier on formant tracks."""
import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from formants import COMMANDS, make_corpus
from transforms import Compose, HzToBark, RandomVTLN, Standardize


class Utterances(Dataset):
    def __init__(self, X, y, transform):
        self.X, self.y, self.transform = X, y, transform

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.transform(self.X[i])), int(self.y[i])


class CommandNet(nn.Module):
    def __init__(self, n_in=4, ch=32, n_classes=len(COMMANDS)):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_in, ch, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(ch, ch, 5, padding=2), nn.ReLU())
        self.fc = nn.Linear(2 * ch, n_classes)

    def forward(self, x):                      # x: [B, T, F]
        h = self.conv(x.transpose(1, 2))       # [B, C, T]
        return self.fc(torch.cat([h.mean(-1), h.amax(-1)], dim=1))


def feature_stats(X):
    bark = np.stack([HzToBark()(x) for x in X])
    return bark.reshape(-1, bark.shape[-1]).mean(0), bark.reshape(-1, bark.shape[-1]).std(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()

    Xtr, ytr = make_corpus(4000, seed=args.seed)
    Xte, yte = make_corpus(1000, seed=args.seed + 1)
    mean, std = feature_stats(Xtr)
    train_tf = Compose([RandomVTLN(seed=args.seed), HzToBark(), Standardize(mean, std)])
    test_tf = Compose([Standardize(mean, std)])
    train_dl = DataLoader(Utterances(Xtr, ytr, train_tf), batch_size=64, shuffle=True)
    test_dl = DataLoader(Utterances(Xte, yte, test_tf), batch_size=250)

    model = CommandNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    ce = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, yb in train_dl:
            loss = ce(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in test_dl:
                correct += (model(xb).argmax(1) == yb).sum().item()
        acc = correct / len(yte)
        print(f"epoch {epoch + 1:2d} loss={total / len(train_dl):.4f} test_acc={acc:.4f}")
    print(f"time {time.time() - t0:.1f}s")
    print(f"METRIC test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
