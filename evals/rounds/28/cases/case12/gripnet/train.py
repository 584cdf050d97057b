import argparse
import json

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from .model import grip_cnn
from .plates import make_dataset
from .trainer import Trainer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/base.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    X, y = make_dataset(cfg["data"]["per_class"], seed)
    order = np.random.default_rng(seed).permutation(len(y))
    n_val = int(len(y) * cfg["data"]["val_fraction"])
    va, tr = order[:n_val], order[n_val:]
    Xtr, ytr = torch.from_numpy(X[tr]), torch.from_numpy(y[tr])
    Xva, yva = torch.from_numpy(X[va]), torch.from_numpy(y[va])

    loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=cfg["train"]["batch_size"], shuffle=True)
    trainer = Trainer(grip_cnn(cfg["model"]["width"]), cfg)
    for epoch in range(cfg["train"]["epochs"]):
        losses = [trainer.train_step(xb, yb) for xb, yb in loader]
        print(f"epoch {epoch + 1} loss={np.mean(losses):.4f} val_acc={trainer.accuracy(Xva, yva):.4f}")
    print(f"val_acc={trainer.accuracy(Xva, yva):.4f}")


if __name__ == "__main__":
    main()
