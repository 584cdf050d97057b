import argparse

import torch
import torch.nn.functional as F

from model import MLP
from spirals import make_spirals, train_test_split


def sgd_update(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.add_(p.grad, alpha=-lr)


def accuracy(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(dim=1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    x, y = make_spirals(seed=args.seed)
    (x_train, y_train), (x_test, y_test) = train_test_split(x, y)

    model = MLP()
    n = len(x_train)
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(n)
        epoch_loss = 0.0
        for start in range(0, n, args.batch_size):
            idx = order[start:start + args.batch_size]
            logits = model(x_train[idx])
            loss = F.cross_entropy(logits, y_train[idx])
            loss.backward()
            sgd_update(model.parameters(), args.lr)
            epoch_loss += loss.item() * len(idx)
        if epoch % 10 == 0 or epoch == 1:
            print(f"epoch {epoch:3d}  train loss {epoch_loss / n:.4f}  train acc {accuracy(model, x_train, y_train):.3f}")

    print(f"test accuracy: {accuracy(model, x_test, y_test):.4f}")


if __name__ == "__main__":
    main()
