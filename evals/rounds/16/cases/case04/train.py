import argparse

import numpy as np
import torch
import torch.nn as nn

from features import day_features, load_logs, sales_class, split_days

N_VAL_DAYS = 60


def build_training_table(logs):
    """Stack the training days of every truck into one feature matrix."""
    blocks = []
    for name in sorted(logs):
        feats = day_features(logs[name])
        tr, _ = split_days(len(feats), N_VAL_DAYS)
        blocks.append(feats[tr])
    return np.concatenate(blocks)


def build_training_targets(logs):
    targets = []
    for name, rec in logs.items():
        tr, _ = split_days(len(rec["sales"]), N_VAL_DAYS)
        targets.append(sales_class(rec["sales"][tr]))
    return np.concatenate(targets)


def evaluate(model, logs):
    """Per-truck evaluation on the held-out tail of the season."""
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for name, rec in logs.items():
            feats = day_features(rec)
            tr, va = split_days(len(feats), N_VAL_DAYS)
            y = sales_class(rec["sales"][va], ref=rec["sales"][tr])
            pred = model(torch.from_numpy(feats[va])).argmax(1).numpy()
            correct += (pred == y).sum()
            total += len(y)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    logs = load_logs()
    X = torch.from_numpy(build_training_table(logs))
    y = torch.from_numpy(build_training_targets(logs))
    print(f"train rows {len(X)}, class counts {np.bincount(y.numpy()).tolist()}")

    model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(X))
        for i in range(0, len(X), args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = loss_fn(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 20 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.3f} val_acc {evaluate(model, logs):.3f}")

    print(f"val_acc={evaluate(model, logs):.4f}")


if __name__ == "__main__":
    main()
