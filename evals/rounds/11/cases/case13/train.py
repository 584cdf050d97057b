import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from corpus import TOPICS, make_tickets
from hashing import bucket_by_length, hash_features


def get_args():
    p = argparse.ArgumentParser(description="ticket topic classifier (hashed char n-grams)")
    p.add_argument("--n-train", type=int, default=6000)
    p.add_argument("--n-val", type=int, default=1500)
    p.add_argument("--buckets", type=int, default=2048)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


class HashedMLP(nn.Module):
    def __init__(self, n_in, hidden, n_out, p_drop=0.2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(hidden, n_out),
        )

    def forward(self, x):
        return self.net(x)


def accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        pred = model(X).argmax(dim=1)
    model.train()
    return (pred == y).float().mean().item()


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    t0 = time.time()

    train_texts, train_labels = make_tickets(args.n_train, seed=100 + args.seed)
    val_texts, val_labels = make_tickets(args.n_val, seed=999)

    train_texts = bucket_by_length(train_texts)
    X_train = torch.from_numpy(hash_features(train_texts, args.buckets))
    y_train = torch.tensor(train_labels, dtype=torch.long)
    X_val = torch.from_numpy(hash_features(val_texts, args.buckets))
    y_val = torch.tensor(val_labels, dtype=torch.long)
    print(f"features: train {tuple(X_train.shape)} val {tuple(X_val.shape)} ({time.time() - t0:.1f}s)")

    loader = DataLoader(TensorDataset(X_train, y_train), batch_size=args.batch_size, shuffle=True)
    model = HashedMLP(args.buckets, args.hidden, len(TOPICS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        total, n = 0.0, 0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
            n += len(xb)
        print(f"epoch {epoch + 1:2d} train_loss={total / n:.4f} val_acc={accuracy(model, X_val, y_val):.4f}")

    print(f"done in {time.time() - t0:.1f}s")
    print(f"val_acc={accuracy(model, X_val, y_val):.4f}")


if __name__ == "__main__":
    main()
