import argparse
import json
import os
import random
from dataclasses import dataclass, field, fields

import numpy as np
import prepare_data
import torch
import torch.nn as nn
from dataset import ClaimsDataset
from model import EmbeddingMLP
from torch.utils.data import DataLoader


@dataclass
class Config:
    train_csv: str = "data/train.csv"
    valid_csv: str = "data/valid.csv"
    categorical: list = field(default_factory=list)
    numeric: list = field(default_factory=list)
    target: str = "claim"
    emb_dim: int = 6
    hidden: int = 64
    dropout: float = 0.1
    batch_size: int = 128
    num_workers: int = 2
    epochs: int = 8
    lr: float = 3e-3
    weight_decay: float = 0.0
    seed: int = 0


def load_config():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    known, rest = ap.parse_known_args()
    with open(known.config) as fh:
        cfg = Config(**json.load(fh))
    # allow --key value overrides for scalar fields
    over = argparse.ArgumentParser()
    for f in fields(Config):
        if f.type in (int, float, str):
            over.add_argument(f"--{f.name.replace('_', '-')}", type=f.type, default=getattr(cfg, f.name))
    ns = over.parse_args(rest)
    for k, v in vars(ns).items():
        setattr(cfg, k, v)
    return cfg


def roc_auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    scores, labels = [], []
    for cats, nums, y in loader:
        scores.append(model(cats, nums))
        labels.append(y)
    model.train()
    s = torch.cat(scores).numpy()
    y = torch.cat(labels).numpy()
    return roc_auc(s, y), float(((s > 0) == (y > 0.5)).mean())


def main():
    cfg = load_config()
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)

    if not (os.path.exists(cfg.train_csv) and os.path.exists(cfg.valid_csv)):
        prepare_data.main(os.path.dirname(cfg.train_csv) or ".")

    train_ds = ClaimsDataset(cfg.train_csv, cfg.categorical, cfg.numeric, cfg.target)
    valid_ds = ClaimsDataset(cfg.valid_csv, cfg.categorical, cfg.numeric, cfg.target,
                             num_stats=train_ds.num_stats)
    print(f"train={len(train_ds)} valid={len(valid_ds)} positives={train_ds.y.mean():.3f}")

    train_loader = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True,
                              num_workers=cfg.num_workers, persistent_workers=cfg.num_workers > 0)
    valid_loader = DataLoader(valid_ds, batch_size=512, num_workers=0)

    model = EmbeddingMLP(train_ds.cardinalities(), len(cfg.numeric),
                         cfg.emb_dim, cfg.hidden, cfg.dropout)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    criterion = nn.BCEWithLogitsLoss()

    for epoch in range(1, cfg.epochs + 1):
        total, n = 0.0, 0
        for cats, nums, y in train_loader:
            logits = model(cats, nums)
            loss = criterion(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
            n += len(y)
        auc, acc = evaluate(model, valid_loader)
        print(f"epoch {epoch}: train_loss={total / n:.4f} val_auc={auc:.4f} val_acc={acc:.4f}")

    auc, acc = evaluate(model, valid_loader)
    print(f"val_acc={acc:.4f}")
    print(f"METRIC val_auc={auc:.4f}")


if __name__ == "__main__":
    main()
