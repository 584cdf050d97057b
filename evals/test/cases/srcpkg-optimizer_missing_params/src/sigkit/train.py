import argparse
import random

import numpy as np
import torch

from sigkit.config import TrainConfig
from sigkit.data import build_loaders
from sigkit.model import SignalNet
from sigkit.trainer import Trainer


def parse_args(argv=None):
    defaults = TrainConfig()
    p = argparse.ArgumentParser(description="Train the sigkit signal classifier")
    p.add_argument("--epochs", type=int, default=defaults.epochs)
    p.add_argument("--batch-size", type=int, default=defaults.batch_size)
    p.add_argument("--lr", type=float, default=defaults.lr)
    p.add_argument("--head-lr-mult", type=float, default=defaults.head_lr_mult)
    p.add_argument("--weight-decay", type=float, default=defaults.weight_decay)
    p.add_argument("--seed", type=int, default=defaults.seed)
    p.add_argument("--out-dir", default=defaults.out_dir)
    args = p.parse_args(argv)
    return TrainConfig(
        epochs=args.epochs,
        batch_size=args.batch_size,
        lr=args.lr,
        head_lr_mult=args.head_lr_mult,
        weight_decay=args.weight_decay,
        seed=args.seed,
        out_dir=args.out_dir,
    )


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def main(argv=None):
    cfg = parse_args(argv)
    seed_everything(cfg.seed)
    train_dl, val_dl = build_loaders(cfg)
    model = SignalNet(cfg.n_classes, channels=cfg.channels, dropout=cfg.dropout)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"SignalNet with {n_params} parameters, {len(train_dl.dataset)} train windows")
    trainer = Trainer(model, cfg)
    best = trainer.fit(train_dl, val_dl)
    _, final_acc = trainer.evaluate(val_dl)
    print(f"final val_acc {final_acc:.4f} (best {best:.4f})")


if __name__ == "__main__":
    main()
