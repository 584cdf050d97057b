from __future__ import annotations

import logging
from dataclasses import dataclass

import torch
from torch import nn
from torch.utils.data import DataLoader

from trainer_pkg.config import OptimConfig

log = logging.getLogger(__name__)


@dataclass
class EpochStats:
    loss: float
    accuracy: float


class Trainer:
    def __init__(self, model: nn.Module, cfg: OptimConfig):
        self.model = model
        self.cfg = cfg
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=cfg.step_size, gamma=cfg.gamma)

    def train_epoch(self, loader: DataLoader) -> EpochStats:
        self.model.train()
        total_loss, correct, count = 0.0, 0, 0
        for inputs, targets in loader:
            self.optimizer.zero_grad(set_to_none=True)
            logits = self.model(inputs)
            loss = self.criterion(logits, targets)
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.max_grad_norm)
            self.optimizer.step()
            self.scheduler.step()

            total_loss += loss.item() * targets.size(0)
            correct += (logits.argmax(dim=1) == targets).sum().item()
            count += targets.size(0)
        return EpochStats(total_loss / count, correct / count)

    @torch.no_grad()
    def evaluate(self, loader: DataLoader) -> EpochStats:
        self.model.eval()
        total_loss, correct, count = 0.0, 0, 0
        for inputs, targets in loader:
            logits = self.model(inputs)
            total_loss += self.criterion(logits, targets).item() * targets.size(0)
            correct += (logits.argmax(dim=1) == targets).sum().item()
            count += targets.size(0)
        return EpochStats(total_loss / count, correct / count)

    def fit(self, train_loader: DataLoader, val_loader: DataLoader) -> EpochStats:
        val = EpochStats(float("nan"), 0.0)
        for epoch in range(1, self.cfg.epochs + 1):
            train = self.train_epoch(train_loader)
            val = self.evaluate(val_loader)
            log.info(
                "epoch %02d lr %.2e | train loss %.4f acc %.3f | val loss %.4f acc %.3f",
                epoch, self.scheduler.get_last_lr()[0], train.loss, train.accuracy, val.loss, val.accuracy,
            )
        return val
