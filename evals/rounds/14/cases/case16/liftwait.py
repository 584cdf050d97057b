import argparse
import json
import math
import os
import random
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

import calllog


@dataclass
class Config:
    log_path: str = "data/calls.jsonl"
    epochs: int = 20
    batch_size: int = 64
    lr: float = 1e-3
    hidden: int = 64
    val_fraction: float = 0.2
    seed: int = 0


def load_log(path):
    if not os.path.exists(path):
        calllog.generate(path)
    with open(path) as f:
        return [json.loads(line) for line in f]


def bucket_edges(records):
    """Tertiles of the observed waits -> edges between short/medium/long."""
    records.sort(key=lambda r: r["wait_s"])
    n = len(records)
    return records[n // 3]["wait_s"], records[2 * n // 3]["wait_s"]


def bucket(wait, edges):
    lo, hi = edges
    return 0 if wait < lo else (1 if wait < hi else 2)


def featurize(r):
    h = 2 * math.pi * r["hour"] / 24
    missing = r["floor"] is None
    floor = 0.0 if missing else r["floor"] / calllog.N_FLOORS
    return [
        math.sin(h), math.cos(h),
        floor, float(missing), float(r["floor"] == 0),
        float(r["direction"]),
        r["pending_calls"] / 10.0,
        r["nearest_car_distance"] / 10.0,
        r["cars_idle"] / 4.0,
    ]


def to_tensors(records, edges):
    x = torch.tensor([featurize(r) for r in records], dtype=torch.float32)
    y = torch.tensor([bucket(r["wait_s"], edges) for r in records])
    return x, y


class WaitNet(nn.Module):
    def __init__(self, d_in, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 3),
        )

    def forward(self, x):
        return self.net(x)


def batches(x, y, batch_size):
    # calls are independent given the features; iterate the log as stored
    for i in range(0, len(y), batch_size):
        yield x[i : i + batch_size], y[i : i + batch_size]


def main():
    ap = argparse.ArgumentParser()
    for k, v in Config.__dataclass_fields__.items():
        ap.add_argument("--" + k.replace("_", "-"), type=type(v.default), default=v.default)
    cfg = Config(**vars(ap.parse_args()))
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    records = load_log(cfg.log_path)
    rng = random.Random(cfg.seed)
    rng.shuffle(records)
    n_val = int(cfg.val_fraction * len(records))
    val_recs, train_recs = records[:n_val], records[n_val:]

    edges = bucket_edges(train_recs)
    print(f"bucket edges: {edges[0]:.1f}s / {edges[1]:.1f}s")
    xtr, ytr = to_tensors(train_recs, edges)
    xva, yva = to_tensors(val_recs, edges)

    model = WaitNet(xtr.shape[1], cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        total = 0.0
        for xb, yb in batches(xtr, ytr, cfg.batch_size):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        model.eval()
        with torch.no_grad():
            acc = (model(xva).argmax(1) == yva).float().mean().item()
        if epoch % 4 == 0 or epoch == cfg.epochs - 1:
            print(f"epoch {epoch:2d} loss {total / len(ytr):.4f} val_acc {acc:.4f}")

    print(f"{time.time() - t0:.1f}s")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
