import argparse
import json

import numpy as np
import torch

from .dance import make
from .net import DanceReader
from .trainer import Trainer


def cmd_train(a):
    cfg = json.load(open(a.config))
    if a.seed is not None:
        cfg["seed"] = a.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    X, ang = make(cfg["n_train"], cfg["frames"], rng)
    Xv, angv = make(cfg["n_val"], cfg["frames"], rng)
    X, ang, Xv, angv = map(torch.tensor, (X, ang, Xv, angv))

    trainer = Trainer(DanceReader(cfg["frames"]), cfg)
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(X))
        for s in range(0, len(perm), cfg["batch_size"]):
            j = perm[s:s + cfg["batch_size"]]
            trainer.train_step(X[j], ang[j])
        print(f"epoch {epoch + 1}: val mean angular error {trainer.evaluate(Xv, angv):.2f} deg")
    print(f"val_angle_err_deg={trainer.evaluate(Xv, angv):.3f}")


def main():
    ap = argparse.ArgumentParser(prog="waggle")
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--config", default="waggle/defaults.json")
    t.add_argument("--seed", type=int)
    t.set_defaults(func=cmd_train)
    a = ap.parse_args()
    a.func(a)


if __name__ == "__main__":
    main()
