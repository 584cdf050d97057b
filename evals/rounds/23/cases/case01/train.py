import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from archive import TOPICS, build_archive
from features import topic_labels, vectorize


def parse_args():
    p = argparse.ArgumentParser(description="train the zine topic classifier")
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--buckets", type=int, default=1024)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--val-frac", type=float, default=0.2)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


class TopicMLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, n_hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(n_hidden, n_out),
        )

    def forward(self, x):
        return self.net(x)


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(1)

    records = build_archive()
    X, ids = vectorize(records, args.buckets)
    y = topic_labels(records)
    print(f"archive: {len(ids)} zines, {len(TOPICS)} topics, {X.shape[1]} buckets")

    perm = np.random.permutation(len(X))
    n_val = int(len(X) * args.val_frac)
    va, tr = perm[:n_val], perm[n_val:]
    train_ds = TensorDataset(torch.from_numpy(X[tr]), torch.from_numpy(y[tr]))
    val_x, val_y = torch.from_numpy(X[va]), torch.from_numpy(y[va])
    loader = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)

    model = TopicMLP(X.shape[1], args.hidden, len(TOPICS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        total, n = 0.0, 0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
            n += len(xb)
        model.eval()
        with torch.no_grad():
            val_acc = (model(val_x).argmax(1) == val_y).float().mean().item()
        print(f"epoch {epoch + 1:2d} train_loss={total / n:.4f} val_acc={val_acc:.3f}")

    print(f"val_acc={val_acc:.4f}")


if __name__ == "__main__":
    main()
