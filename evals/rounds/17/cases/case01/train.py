import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader

from catalog import GENRES, export
from features import HashedSubjects


def parse():
    ap = argparse.ArgumentParser(description="genre from hashed subject headings")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--buckets", type=int, default=1024)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--num-workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


def split_records(records, val_frac, seed):
    rng = np.random.default_rng(seed + 1)
    order = rng.permutation(len(records))
    n_val = int(len(records) * val_frac)
    val = [records[i] for i in order[:n_val]]
    train = [records[i] for i in order[n_val:]]
    # keep the export's shelf order inside each split
    train.sort(key=lambda r: GENRES.index(r["genre"]))
    val.sort(key=lambda r: GENRES.index(r["genre"]))
    return train, val


def build_loaders(args, train_recs, val_recs):
    train_ds = HashedSubjects(train_recs, GENRES, args.buckets)
    val_ds = HashedSubjects(val_recs, GENRES, args.buckets)
    common = dict(batch_size=args.batch_size, num_workers=args.num_workers,
                  shuffle=False, persistent_workers=args.num_workers > 0)
    train_dl = DataLoader(train_ds, **common)
    val_dl = DataLoader(val_ds, **common)
    return train_dl, val_dl


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(dim=1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    args = parse()
    torch.manual_seed(args.seed)
    records = export(seed=args.seed)
    train_recs, val_recs = split_records(records, 0.2, args.seed)
    train_dl, val_dl = build_loaders(args, train_recs, val_recs)

    model = nn.Sequential(
        nn.Linear(args.buckets, args.hidden), nn.ReLU(), nn.Dropout(0.2),
        nn.Linear(args.hidden, len(GENRES)),
    )
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        running, n = 0.0, 0
        for x, y in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            running += loss.item() * len(y)
            n += len(y)
        acc = evaluate(model, val_dl)
        print(f"epoch {epoch + 1} loss={running / n:.4f} val_acc={acc:.4f}")

    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
