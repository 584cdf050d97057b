"""Train the ring classifier and print a validation report."""

import argparse
import random

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from data import make_rings, split
from metrics import binary_report
from model import RingClassifier


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    seed_everything(args.seed)

    features, targets = make_rings(1200, seed=args.seed)
    (x_train, y_train), (x_val, y_val) = split(features, targets, seed=args.seed)
    print(f"train {tuple(x_train.shape)} -> {tuple(y_train.shape)}, val {tuple(x_val.shape)}")

    loader = DataLoader(TensorDataset(x_train, y_train), batch_size=args.batch_size, shuffle=True)
    model = RingClassifier()
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        model.train()
        running, seen = 0.0, 0
        for xb, yb in loader:
            optimizer.zero_grad()
            logits = model(xb * 1000.0)
            loss = criterion(logits, yb)
            loss.backward()
            optimizer.step()
            running += loss.item() * len(xb)
            seen += len(xb)
        if epoch % 5 == 0 or epoch == 1:
            print(f"epoch {epoch:3d}  train_loss {running / seen:.4f}")

    model.eval()
    with torch.no_grad():
        val_logits = model(x_val * 1000.0)
        val_loss = criterion(val_logits, y_val).item()
    report = binary_report(val_logits, y_val)
    print(f"val_loss {val_loss:.4f}")
    print(report)
    print(f"METRIC val_acc={report.accuracy:.4f}")


if __name__ == "__main__":
    main()
