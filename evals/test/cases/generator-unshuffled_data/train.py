import argparse
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

from make_features import KEYWORDS, N_FEATURES, write_features


def load_split(data_dir, split):
    feats, labels = [], []
    for k, word in enumerate(KEYWORDS):
        x = np.load(Path(data_dir) / split / f"{word}.npy")
        feats.append(x)
        labels.append(np.full(len(x), k, dtype=np.int64))
    return np.concatenate(feats), np.concatenate(labels)


def batches(features, labels, batch_size):
    order = np.arange(len(features))
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        yield torch.from_numpy(features[idx]), torch.from_numpy(labels[idx])


def build_model(hidden=128):
    return nn.Sequential(
        nn.Linear(N_FEATURES, hidden), nn.ReLU(), nn.Dropout(0.2),
        nn.Linear(hidden, hidden), nn.ReLU(),
        nn.Linear(hidden, len(KEYWORDS)),
    )


def accuracy(model, features, labels):
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(features)).argmax(1).numpy()
    model.train()
    return float((pred == labels).mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=5e-3)
    args = ap.parse_args()

    torch.manual_seed(0)
    np.random.seed(0)
    if not (Path(args.data) / "train").exists():
        write_features(args.data)
    x_train, y_train = load_split(args.data, "train")
    x_test, y_test = load_split(args.data, "test")
    mean, std = x_train.mean(0), x_train.std(0)
    x_train = (x_train - mean) / std
    x_test = (x_test - mean) / std

    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        total, n = 0.0, 0
        for feats, keyword_ids in batches(x_train, y_train, args.batch_size):
            optimizer.zero_grad()
            loss = criterion(model(feats), keyword_ids)
            loss.backward()
            optimizer.step()
            total += loss.item() * len(feats)
            n += len(feats)
        print(f"epoch {epoch + 1:2d}  loss {total / n:.4f}")

    print(f"test accuracy {accuracy(model, x_test, y_test):.4f}")


if __name__ == "__main__":
    main()
