"""Entry point: python -m tilenet [--config configs/tiles.toml]"""
import argparse
import json
import random
import tomllib
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import DataLoader

from .data import TileDataset
from .engine import train
from .model import TileNet


def load_config(path):
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def main():
    ap = argparse.ArgumentParser(prog="tilenet")
    ap.add_argument("--config", default="configs/tiles.toml")
    ap.add_argument("--epochs", type=int, help="override train.epochs")
    args = ap.parse_args()

    cfg = load_config(args.config)
    if args.epochs is not None:
        cfg["train"]["epochs"] = args.epochs

    seed = cfg["seed"]
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)

    d = cfg["data"]
    train_set = TileDataset(d["n_train"], cfg["model"]["n_classes"], d["noise"], d["max_shift"], seed=seed)
    test_set = TileDataset(d["n_test"], cfg["model"]["n_classes"], d["noise"], d["max_shift"], seed=seed + 1)
    train_loader = DataLoader(train_set, batch_size=cfg["train"]["batch_size"], shuffle=True,
                              generator=torch.Generator().manual_seed(seed))
    test_loader = DataLoader(test_set, batch_size=256)

    model = TileNet(**cfg["model"])
    history = train(model, train_loader, test_loader, cfg)

    out = Path(cfg["out_dir"])
    out.mkdir(exist_ok=True)
    torch.save(model.state_dict(), out / "tilenet.pt")
    (out / "history.json").write_text(json.dumps(history, indent=2))
    print(f"final test_acc: {history[-1]['test_acc']:.4f}")


if __name__ == "__main__":
    main()
