import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from corpus import TOPICS, make_profiles
from features import vectorize
from model import TopicClassifier


def run_epoch(model, loader, criterion, opt):
    model.train()
    total, n = 0.0, 0
    for xb, yb in loader:
        probs = model.predict_proba(xb)
        loss = criterion(probs, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        n += len(yb)
    return total / n


@torch.no_grad()
def accuracy(model, X, y):
    model.eval()
    return (model.predict_proba(X).argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--buckets", type=int, default=2048)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    texts, labels = make_profiles(3000, seed=args.seed)
    X = torch.from_numpy(vectorize(texts, args.buckets))
    y = torch.from_numpy(labels).long()
    Xtr, ytr, Xte, yte = X[:2400], y[:2400], X[2400:], y[2400:]

    loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=64, shuffle=True)
    model = TopicClassifier(args.buckets, len(TOPICS))
    criterion = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        loss = run_epoch(model, loader, criterion, opt)
        print(f"epoch {epoch + 1} loss={loss:.4f} test_acc={accuracy(model, Xte, yte):.4f}")
    print(f"test_acc={accuracy(model, Xte, yte):.4f}")


if __name__ == "__main__":
    main()
