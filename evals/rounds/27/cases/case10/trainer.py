"""Minimal hook-based trainer."""
from collections import defaultdict

import torch


class Trainer:
    EVENTS = ("before_epoch", "after_epoch", "before_eval", "after_eval")

    def __init__(self, model, optimizer, loss_fn):
        self.model, self.optimizer, self.loss_fn = model, optimizer, loss_fn
        self.hooks = defaultdict(list)
        self.epoch = 0

    def on(self, event, fn):
        self.hooks[event].append(fn)

    def _fire(self, event):
        for fn in self.hooks[event]:
            fn(self)

    def fit(self, loader, epochs, eval_loader=None):
        for self.epoch in range(epochs):
            self._fire("before_epoch")
            total, n = 0.0, 0
            for xb, yb in loader:
                loss = self.loss_fn(self.model(xb), yb)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item() * len(yb); n += len(yb)
            self.train_loss = total / n
            self._fire("after_epoch")
            if eval_loader is not None:
                print(f"epoch {self.epoch + 1}  loss {self.train_loss:.4f}  val_acc {self.evaluate(eval_loader):.4f}")

    @torch.no_grad()
    def evaluate(self, loader):
        self._fire("before_eval")
        correct = total = 0
        for xb, yb in loader:
            correct += (self.model(xb).argmax(1) == yb).sum().item()
            total += len(yb)
        self._fire("after_eval")
        return correct / total
