import argparse
import json
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from data import ListingDataset, make_loader
from listings import generate


class BagClassifier(nn.Module):
    def __init__(self, buckets, dim, hidden, n_classes):
        super().__init__()
        self.emb = nn.Embedding(buckets, dim, padding_idx=0)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, ids):
        mask = (ids != 0).unsqueeze(-1).float()
        pooled = (self.emb(ids) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.mlp(pooled)


def split(texts, labels, seed, frac=0.2):
    idx = list(range(len(texts)))
    random.Random(seed).shuffle(idx)
    n_val = int(len(idx) * frac)
    val, tr = sorted(idx[:n_val]), sorted(idx[n_val:])
    pick = lambda ii: ([texts[i] for i in ii], [labels[i] for i in ii])
    return pick(tr), pick(val)


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for ids, y in loader:
            correct += (model(ids).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    texts, labels, names = generate(cfg["n_per_category"], cfg["seed"])
    (tr_t, tr_y), (va_t, va_y) = split(texts, labels, cfg["seed"])
    train_ds = ListingDataset(tr_t, tr_y, cfg["buckets"], cfg["max_tokens"])
    val_ds = ListingDataset(va_t, va_y, cfg["buckets"], cfg["max_tokens"])
    train_dl = make_loader(train_ds, cfg, train=True)
    val_dl = make_loader(val_ds, cfg, train=False)
    print(f"{len(names)} categories, {len(train_ds)} train / {len(val_ds)} val listings")

    model = BagClassifier(cfg["buckets"], cfg["embed_dim"], cfg["hidden"], len(names))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        model.train()
        tot = 0.0
        for ids, y in train_dl:
            loss = F.cross_entropy(model(ids), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        acc = evaluate(model, val_dl)
        print(f"epoch {epoch}  train_loss {tot / len(train_ds):.4f}  val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
