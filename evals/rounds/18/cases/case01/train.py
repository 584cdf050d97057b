import argparse
import random

import numpy as np
import torch
import torch.nn as nn

from features import edibility_labels, encode_specimens
from field_guide import make_records


class HashedBagClassifier(nn.Module):
    def __init__(self, n_buckets, dim=32, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(n_buckets, dim, padding_idx=0)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, ids):
        bag = self.emb(ids).sum(1)  # sum of trait vectors
        return self.mlp(bag).squeeze(-1)


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--buckets", type=int, default=1024)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(1)
    set_seed(args.seed)

    records = make_records(args.n, seed=1234)
    X = torch.from_numpy(encode_specimens(records, args.buckets))
    y = torch.from_numpy(edibility_labels(records))

    perm = torch.randperm(len(X))
    n_val = len(X) // 5
    va, tr = perm[:n_val], perm[n_val:]
    print(f"train={len(tr)} val={len(va)} edible_frac={y.mean():.2f}")

    model = HashedBagClassifier(args.buckets)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(args.epochs):
        model.train()
        order = tr[torch.randperm(len(tr))]
        tot = 0.0
        for i in range(0, len(order), args.batch_size):
            idx = order[i:i + args.batch_size]
            logits = model(X[idx])
            loss = loss_fn(logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            acc = ((model(X[va]) > 0).float() == y[va]).float().mean().item()
        print(f"epoch {epoch + 1:02d} train_bce={tot / len(tr):.4f} val_acc={acc:.4f}")

    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
