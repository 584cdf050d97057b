import argparse
import json

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset

from corpus import CUISINES, build
from features import HashedPosts, split


def make_loader(ds, split_name, cfg):
    return DataLoader(ds, batch_size=cfg["batch_size"], shuffle=(split_name == "train"),
                      num_workers=cfg["num_workers"], persistent_workers=cfg["num_workers"] > 0)


class BagClassifier(nn.Module):
    def __init__(self, n_buckets, n_classes, hidden=64):
        super().__init__()
        self.proj = nn.Linear(n_buckets, hidden)
        self.out = nn.Sequential(nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.out(self.proj(x))


def accuracy(model, loader):
    model.eval()
    right = total = 0
    with torch.no_grad():
        for x, y in loader:
            right += (model(x).argmax(-1) == y).sum().item()
            total += len(y)
    model.train()
    return right / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    posts, labels = build(cfg["corpus"]["posts_per_cuisine"], seed=1)
    ds = HashedPosts(posts, labels, cfg["hashing"]["buckets"])
    tr_idx, va_idx = split(len(ds), cfg["corpus"]["val_fraction"], seed)
    train_dl = make_loader(Subset(ds, tr_idx), "training", cfg["loader"])
    val_dl = make_loader(Subset(ds, va_idx), "validation", cfg["loader"])

    model = BagClassifier(cfg["hashing"]["buckets"], len(CUISINES))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["optim"]["lr"])
    ce = nn.CrossEntropyLoss()
    for epoch in range(cfg["optim"]["epochs"]):
        seen, run = 0, 0.0
        for x, y in train_dl:
            loss = ce(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(y)
            seen += len(y)
        print(f"epoch {epoch + 1} train_loss={run / seen:.3f} val_acc={accuracy(model, val_dl):.3f}")
    print(f"val_acc={accuracy(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
