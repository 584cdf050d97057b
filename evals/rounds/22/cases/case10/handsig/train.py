"""Entry point: python -m handsig.train --config configs/default.json"""
import argparse
import json
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from . import N_ANGLES, SIGNALS
from .data import AngleScaler, simulate_session, split_ids, stack_angles, stack_labels
from .model import SignalNet


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--config", default="configs/default.json")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--epochs", type=int, default=None)
    return p.parse_args()


def build_tensors(cfg):
    store, annotations = simulate_session(cfg["n_divers"], cfg["takes_per_signal"], seed=1234)
    train_ids, val_ids = split_ids(store, cfg["val_divers"])
    xtr, xva = stack_angles(store, train_ids), stack_angles(store, val_ids)
    ytr, yva = stack_labels(annotations, train_ids), stack_labels(annotations, val_ids)
    scaler = AngleScaler().fit(xtr)
    xtr, xva = scaler(xtr), scaler(xva)
    to_t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    return (to_t(xtr), to_t(ytr)), (to_t(xva), to_t(yva))


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    pred = model(x).argmax(dim=1)
    return (pred == y).float().mean().item()


def main():
    args = parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    if args.seed is not None:
        cfg["seed"] = args.seed
    if args.epochs is not None:
        cfg["epochs"] = args.epochs
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])

    (xtr, ytr), (xva, yva) = build_tensors(cfg)
    print(f"train {tuple(xtr.shape)}  val {tuple(xva.shape)}  classes={len(SIGNALS)}")
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=cfg["batch_size"], shuffle=True,
                        generator=torch.Generator().manual_seed(cfg["seed"]))

    model = SignalNet(N_ANGLES, len(SIGNALS), cfg["hidden"], cfg["blocks"], cfg["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    loss_fn = torch.nn.CrossEntropyLoss()

    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        total, n = 0.0, 0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
            n += len(xb)
        if epoch % 5 == 4 or epoch == cfg["epochs"] - 1:
            print(f"epoch {epoch + 1:3d}  train_loss {total / n:.4f}  "
                  f"train_acc {accuracy(model, xtr, ytr):.3f}  val_acc {accuracy(model, xva, yva):.3f}")
    print(f"done in {time.time() - t0:.1f}s")
    print(f"val_acc={accuracy(model, xva, yva):.4f}")


if __name__ == "__main__":
    main()
