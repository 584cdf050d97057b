"""Predict loan default from the applicant table.

python train.py [--epochs 40] [--csv data/loans.csv]
"""

import argparse
import os

import numpy as np
import torch
import torch.nn as nn
from make_data import make_loans

TARGET = "defaulted"


def load_table(path):
    raw = np.genfromtxt(path, delimiter=",", names=True)
    feature_names = [c for c in raw.dtype.names if c != TARGET]
    features = np.column_stack([raw[c] for c in feature_names]).astype(np.float32)
    features[:, feature_names.index("income")] = np.log(features[:, feature_names.index("income")])
    target = raw[TARGET].astype(np.float32)
    return features, target, feature_names


def shuffle_split(features, target, test_fraction=0.25, seed=0):
    rng = np.random.default_rng(seed)
    rng.shuffle(features)
    rng.shuffle(target)
    n_test = int(len(features) * test_fraction)
    return (features[n_test:], target[n_test:]), (features[:n_test], target[:n_test])


def standardize(train_x, test_x):
    mean = train_x.mean(axis=0)
    std = train_x.std(axis=0) + 1e-6
    return (train_x - mean) / std, (test_x - mean) / std


def build_model(n_features, hidden=64):
    return nn.Sequential(
        nn.Linear(n_features, hidden),
        nn.ReLU(),
        nn.Linear(hidden, hidden),
        nn.ReLU(),
        nn.Linear(hidden, 1),
    )


def accuracy(model, x, y):
    with torch.no_grad():
        probs = torch.sigmoid(model(x).squeeze(1))
    return ((probs > 0.5).float() == y).float().mean().item()


def train(model, x, y, epochs, batch_size, lr, seed):
    gen = torch.Generator().manual_seed(seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        order = torch.randperm(len(x), generator=gen)
        total = 0.0
        for start in range(0, len(x), batch_size):
            idx = order[start : start + batch_size]
            logits = model(x[idx]).squeeze(1)
            loss = loss_fn(logits, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
        if (epoch + 1) % 10 == 0:
            print(
                f"epoch {epoch + 1:3d}  loss {total / len(x):.4f}  train acc {accuracy(model, x, y):.3f}"
            )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", default="data/loans.csv")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    if not os.path.exists(args.csv):
        make_loans(args.csv)

    features, target, names = load_table(args.csv)
    (train_x, train_y), (test_x, test_y) = shuffle_split(features, target, seed=args.seed)
    train_x, test_x = standardize(train_x, test_x)
    print(f"{len(train_x)} train / {len(test_x)} test loans, features: {', '.join(names)}")

    train_x, test_x = torch.from_numpy(train_x), torch.from_numpy(test_x)
    train_y, test_y = torch.from_numpy(train_y), torch.from_numpy(test_y)

    model = build_model(train_x.shape[1])
    train(model, train_x, train_y, args.epochs, args.batch_size, args.lr, args.seed)
    model.eval()
    print(f"test accuracy: {accuracy(model, test_x, test_y):.3f}")


if __name__ == "__main__":
    main()
