import torch
from torch import nn


class Trainer:
    """Minimal fit loop with hooks, Huber loss and a step-decay schedule."""

    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
        self.sched = torch.optim.lr_scheduler.StepLR(self.opt, step_size=cfg["lr_decay_every"],
                                                     gamma=cfg["lr_gamma"])
        self.loss_fn = nn.HuberLoss(delta=cfg["huber_delta"])
        self.history = []

    def _after_step(self):
        self.sched.step()

    def _after_epoch(self, epoch, train_loss, val_mae):
        self.history.append((epoch, train_loss, val_mae, self.opt.param_groups[0]["lr"]))
        print(f"epoch {epoch:2d} huber={train_loss:.4f} val_mae={val_mae:.3f} "
              f"lr={self.opt.param_groups[0]['lr']:.2e}")

    def fit(self, train_loader, evaluate):
        for epoch in range(1, self.cfg["epochs"] + 1):
            self.model.train()
            total, n = 0.0, 0
            for xb, yb in train_loader:
                loss = self.loss_fn(self.model(xb), yb)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self._after_step()
                total += loss.item() * len(yb)
                n += len(yb)
            self._after_epoch(epoch, total / n, evaluate(self.model))
        return self.history
