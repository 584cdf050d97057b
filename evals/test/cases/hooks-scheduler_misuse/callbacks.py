"""Minimal callback system used by fit_model.Fitter."""
import logging
import math
from pathlib import Path

import torch

log = logging.getLogger(__name__)


class Callback:
    def on_fit_start(self, fitter):
        pass

    def on_batch_end(self, fitter, batch_idx, loss):
        pass

    def on_epoch_end(self, fitter, epoch, logs):
        pass

    def on_fit_end(self, fitter):
        pass


class LRSchedulerCallback(Callback):
    """Drives a torch lr scheduler.

    interval="step" calls scheduler.step() after every optimizer step (warmup,
    one-cycle, cosine-per-step); interval="epoch" once per epoch.
    """

    def __init__(self, scheduler, interval="step"):
        if interval not in ("step", "epoch"):
            raise ValueError(interval)
        self.scheduler = scheduler
        self.interval = interval

    def on_batch_end(self, fitter, batch_idx, loss):
        if self.interval == "step":
            self.scheduler.step()

    def on_epoch_end(self, fitter, epoch, logs):
        if self.interval == "epoch":
            self.scheduler.step()
        logs["lr"] = self.scheduler.get_last_lr()[0]


class EarlyStopping(Callback):
    def __init__(self, monitor="val_loss", patience=5, min_delta=1e-4, mode="min"):
        self.monitor = monitor
        self.patience = patience
        self.min_delta = min_delta
        self.mode = mode
        self.best = math.inf if mode == "min" else -math.inf
        self.bad_epochs = 0

    def _improved(self, value):
        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta

    def on_epoch_end(self, fitter, epoch, logs):
        value = logs[self.monitor]
        if self._improved(value):
            self.best = value
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            if self.bad_epochs >= self.patience:
                log.info("early stopping at epoch %d (%s did not improve for %d epochs)",
                         epoch, self.monitor, self.patience)
                fitter.stop_training = True


class ModelCheckpoint(Callback):
    def __init__(self, path, monitor="val_acc", mode="max"):
        self.path = Path(path)
        self.monitor = monitor
        self.mode = mode
        self.best = -math.inf if mode == "max" else math.inf

    def on_epoch_end(self, fitter, epoch, logs):
        value = logs[self.monitor]
        better = value > self.best if self.mode == "max" else value < self.best
        if better:
            self.best = value
            self.path.parent.mkdir(parents=True, exist_ok=True)
            torch.save({"epoch": epoch, "state_dict": fitter.model.state_dict(), self.monitor: value},
                       self.path)

    def on_fit_end(self, fitter):
        if self.path.exists():
            state = torch.load(self.path)
            fitter.model.load_state_dict(state["state_dict"])
            log.info("restored best weights from epoch %d (%s=%.4f)",
                     state["epoch"], self.monitor, state[self.monitor])
