#!/usr/bin/env python
"""Protein family classifier on k-mer composition (1-mers + 2-mers)."""
import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from seqdata import family_labels, featurize, generate_records


class KmerDataset(Dataset):
    def __init__(self, records, mean=None, std=None):
        X, self.ids = featurize(records)
        self.mean = X.mean(0) if mean is None else mean
        self.std = X.std(0) + 1e-6 if std is None else std
        self.X = torch.from_numpy((X - self.mean) / self.std)
        self.y = torch.from_numpy(family_labels(records))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-seqs", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()

    records = generate_records(args.n_seqs, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(records))
    n_tr = int(0.8 * len(records))
    train_recs = [records[i] for i in order[:n_tr]]
    test_recs = [records[i] for i in order[n_tr:]]
    train_ds = KmerDataset(train_recs)
    test_ds = KmerDataset(test_recs, train_ds.mean, train_ds.std)
    print(f"train={len(train_ds)} test={len(test_ds)} features={train_ds.X.shape[1]}")

    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True, num_workers=args.workers,
                          persistent_workers=args.workers > 0)
    test_dl = DataLoader(test_ds, batch_size=256)

    model = nn.Sequential(nn.Linear(train_ds.X.shape[1], 128), nn.ReLU(), nn.Dropout(0.2),
                          nn.Linear(128, 6))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
    ce = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = ce(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        model.eval()
        hits = 0
        with torch.no_grad():
            for xb, yb in test_dl:
                hits += (model(xb).argmax(1) == yb).sum().item()
        acc = hits / len(test_ds)
        print(f"epoch {epoch + 1:2d} loss={total / len(train_ds):.4f} test_acc={acc:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
