"""Train the patient/control classifier.

python -m cohort.train [--epochs 100]
"""

import argparse

import numpy as np
import torch
import torch.nn.functional as F

from cohort.data import load_cohort
from cohort.model import BandPowerMLP


def make_split(features, labels, subjects, val_fraction=0.25, seed=0):
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(labels))
    n_val = int(round(val_fraction * len(labels)))
    val_idx, train_idx = order[:n_val], order[n_val:]
    return train_idx, val_idx


def run(args):
    torch.manual_seed(args.seed)
    features, labels, subjects = load_cohort(args.data)
    train_idx, val_idx = make_split(features, labels, subjects, seed=args.seed)
    print(
        f"{len(np.unique(subjects))} subjects, {len(labels)} recordings "
        f"({len(train_idx)} train / {len(val_idx)} val)"
    )

    mu = features[train_idx].mean(0)
    sigma = features[train_idx].std(0) + 1e-6
    x = torch.from_numpy((features - mu) / sigma)
    y = torch.from_numpy(labels)
    x_train, y_train = x[train_idx], y[train_idx]
    x_val, y_val = x[val_idx], y[val_idx]

    model = BandPowerMLP(x.shape[1])
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(x_train))
        for i in range(0, len(perm), args.batch_size):
            batch = perm[i : i + args.batch_size]
            loss = F.cross_entropy(model(x_train[batch]), y_train[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        if epoch % 25 == 0 or epoch == args.epochs:
            model.eval()
            with torch.no_grad():
                train_acc = (model(x_train).argmax(1) == y_train).float().mean().item()
                val_logits = model(x_val)
                val_loss = F.cross_entropy(val_logits, y_val).item()
                val_acc = (val_logits.argmax(1) == y_val).float().mean().item()
            print(
                f"epoch {epoch:3d}  train_acc {train_acc:.3f}  val_loss {val_loss:.3f}  val_acc {val_acc:.3f}"
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default="data/cohort.npz")
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    run(parser.parse_args())


if __name__ == "__main__":
    main()
