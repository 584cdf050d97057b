"""Fit the risk-tier MLP.

    python fit_model.py --epochs 30 --lr 3e-3
"""
import argparse
import logging
import random

import numpy as np
import torch
import torch.nn.functional as F

from callbacks import EarlyStopping, LRSchedulerCallback, ModelCheckpoint
from net import RiskMLP
from tabular import FEATURE_NAMES, get_loaders

log = logging.getLogger("fit_model")


class Fitter:
    def __init__(self, model, optimizer, callbacks=()):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.stop_training = False

    def _emit(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def _run_epoch(self, loader):
        self.model.train()
        losses = []
        for batch_idx, (features, tiers) in enumerate(loader):
            self.optimizer.zero_grad()
            loss = F.cross_entropy(self.model(features), tiers)
            loss.backward()
            self.optimizer.step()
            losses.append(loss.item())
            self._emit("on_batch_end", batch_idx, loss.item())
        return float(np.mean(losses))

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        losses, hits, count = [], 0, 0
        for features, tiers in loader:
            logits = self.model(features)
            losses.append(F.cross_entropy(logits, tiers, reduction="sum").item())
            hits += (logits.argmax(dim=-1) == tiers).sum().item()
            count += len(tiers)
        return sum(losses) / count, hits / count

    def fit(self, train_loader, val_loader, epochs):
        self._emit("on_fit_start")
        for epoch in range(1, epochs + 1):
            train_loss = self._run_epoch(train_loader)
            val_loss, val_acc = self.validate(val_loader)
            logs = {"train_loss": train_loss, "val_loss": val_loss, "val_acc": val_acc}
            self._emit("on_epoch_end", epoch, logs)
            log.info("epoch %3d  train_loss %.4f  val_loss %.4f  val_acc %.4f  lr %.2e",
                     epoch, train_loss, val_loss, val_acc, logs.get("lr", float("nan")))
            if self.stop_training:
                break
        self._emit("on_fit_end")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=6000, help="number of synthetic rows")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--lr-step", type=int, default=8, help="epochs between lr drops")
    ap.add_argument("--lr-gamma", type=float, default=0.3)
    ap.add_argument("--hidden", type=int, nargs="+", default=[128, 64])
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--patience", type=int, default=6)
    ap.add_argument("--ckpt", default="checkpoints/risk_mlp.pt")
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


def main():
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s", datefmt="%H:%M:%S")
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    train_loader, val_loader = get_loaders(args.rows, args.batch_size, args.seed)
    model = RiskMLP(len(FEATURE_NAMES), 3, hidden=tuple(args.hidden), p_drop=args.dropout)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=args.lr_step, gamma=args.lr_gamma)

    callbacks = [
        LRSchedulerCallback(scheduler),
        EarlyStopping(monitor="val_loss", patience=args.patience),
        ModelCheckpoint(args.ckpt, monitor="val_acc", mode="max"),
    ]
    fitter = Fitter(model, optimizer, callbacks)
    fitter.fit(train_loader, val_loader, args.epochs)

    val_loss, val_acc = fitter.validate(val_loader)
    log.info("final: val_loss %.4f val_acc %.4f", val_loss, val_acc)


if __name__ == "__main__":
    main()
