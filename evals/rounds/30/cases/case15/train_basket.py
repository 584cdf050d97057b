import argparse
import json
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Cfg:
    n_train: int
    n_val: int
    max_items: int
    item_dim: int
    hidden: int
    epochs: int
    lr: float
    batch_size: int
    seed: int


def pack_baskets(n, cfg, rng):
    """Each outing type has a couple of signature items among generic filler."""
    protos = np.random.default_rng(123).standard_normal((4, 3, cfg.item_dim))
    x = rng.standard_normal((n, cfg.max_items, cfg.item_dim)) * 0.8
    y = rng.integers(0, 4, size=n)
    for i in range(n):
        slots = rng.choice(cfg.max_items, size=2, replace=False)
        x[i, slots] = protos[y[i], rng.integers(0, 3, size=2)] * 1.5 + 0.2 * rng.standard_normal((2, cfg.item_dim))
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y)


class BasketEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.item = nn.Sequential(nn.Linear(cfg.item_dim, cfg.hidden), nn.ReLU(), nn.Linear(cfg.hidden, cfg.hidden))
        self.score = nn.Linear(cfg.hidden, 1)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(cfg.hidden, 4))

    def pool(self, h):
        # h: (baskets, items, hidden)
        w = torch.softmax(self.score(h).squeeze(-1), dim=0)
        return (w.unsqueeze(-1) * h).sum(1)

    def forward(self, x):
        return self.head(self.pool(self.item(x)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="basket.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    raw = json.load(open(a.config))
    if a.seed is not None:
        raw["seed"] = a.seed
    cfg = Cfg(**raw)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    xtr, ytr = pack_baskets(cfg.n_train, cfg, rng)
    xva, yva = pack_baskets(cfg.n_val, cfg, rng)
    model = BasketEncoder(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    for ep in range(cfg.epochs):
        model.train()
        perm = torch.randperm(cfg.n_train)
        tot = 0.0
        for i in range(0, cfg.n_train, cfg.batch_size):
            b = perm[i:i + cfg.batch_size]
            loss = F.cross_entropy(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        if ep % 5 == 0:
            print(f"epoch {ep:2d} train_loss {tot / (cfg.n_train // cfg.batch_size):.3f}")
    model.eval()
    with torch.no_grad():
        acc = (model(xva).argmax(-1) == yva).float().mean().item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
