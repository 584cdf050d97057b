from __future__ import annotations

import argparse
import logging
import random
import sys

import numpy as np
import torch

from trainer_pkg.config import load_config
from trainer_pkg.data import build_loaders
from trainer_pkg.engine import Trainer
from trainer_pkg.models import MLPClassifier


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer_pkg.train")
    parser.add_argument("--config", default="configs/default.json")
    args = parser.parse_args(argv)

    logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    cfg = load_config(args.config)
    set_seed(cfg.seed)

    train_loader, val_loader = build_loaders(cfg.data, cfg.optim.batch_size, cfg.seed)
    model = MLPClassifier(cfg.data.n_features, cfg.model.hidden_sizes, cfg.data.n_classes, cfg.model.dropout)
    trainer = Trainer(model, cfg.optim)
    final = trainer.fit(train_loader, val_loader)

    print(f"METRIC val_acc={final.accuracy:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
