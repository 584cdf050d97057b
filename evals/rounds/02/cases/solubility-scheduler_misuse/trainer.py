import math
import time

import torch
import torch.nn as nn


def warmup_linear_decay(warmup_steps, total_steps):
    def factor(step):
        if step < warmup_steps:
            return (step + 1) / warmup_steps
        return max(0.0, (total_steps - step) / max(1, total_steps - warmup_steps))
    return factor


class Trainer:
    def __init__(self, model, train_loader, val_loader, lr, weight_decay, epochs, accum_steps,
                 warmup_frac=0.1, max_grad_norm=5.0, log_every=2):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.epochs = epochs
        self.accum_steps = accum_steps
        self.max_grad_norm = max_grad_norm
        self.log_every = log_every
        self.loss_fn = nn.MSELoss()

        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
        # one scheduler step per optimizer update
        updates_per_epoch = math.ceil(len(train_loader) / accum_steps)
        total = epochs * updates_per_epoch
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, warmup_linear_decay(int(warmup_frac * total), total))

    def fit(self):
        t0 = time.time()
        for epoch in range(1, self.epochs + 1):
            self.model.train()
            self.optimizer.zero_grad()
            running = 0.0
            n_micro = len(self.train_loader)
            for i, (x, y) in enumerate(self.train_loader):
                loss = self.loss_fn(self.model(x), y)
                (loss / self.accum_steps).backward()
                self.scheduler.step()
                running += loss.item()
                if (i + 1) % self.accum_steps == 0 or (i + 1) == n_micro:
                    nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
                    self.optimizer.step()
                    self.optimizer.zero_grad()
            if epoch % self.log_every == 0 or epoch == self.epochs:
                print(f"epoch {epoch:3d}  train_mse {running / n_micro:.4f}  val_rmse {self.evaluate():.4f}  "
                      f"lr {self.optimizer.param_groups[0]['lr']:.2e}  {time.time() - t0:.1f}s")
        return self.evaluate()

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        se, n = 0.0, 0
        for x, y in self.val_loader:
            se += ((self.model(x) - y) ** 2).sum().item()
            n += len(y)
        self.model.train()
        return math.sqrt(se / n)
