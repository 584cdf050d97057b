import math
import time

import numpy as np
import torch
import torch.nn.functional as F


def warmup_cosine(total_steps, warmup_steps, min_ratio=0.02):
    def factor(step):
        if step < warmup_steps:
            return (step + 1) / warmup_steps
        progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)
        return min_ratio + (1 - min_ratio) * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))
    return factor


class Trainer:
    def __init__(self, model, train_loader, val_loader, *, epochs, lr, weight_decay=0.01,
                 warmup_frac=0.05, clip=1.0, log_every=50):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.epochs = epochs
        self.lr = lr
        self.weight_decay = weight_decay
        self.warmup_frac = warmup_frac
        self.clip = clip
        self.log_every = log_every
        self.optimizer, self.scheduler = self.configure_optimizers()
        self.step = 0

    def configure_optimizers(self):
        decay = [p for n, p in self.model.named_parameters() if p.ndim >= 2]
        no_decay = [p for n, p in self.model.named_parameters() if p.ndim < 2]
        optimizer = torch.optim.AdamW(
            [{"params": decay, "weight_decay": self.weight_decay},
             {"params": no_decay, "weight_decay": 0.0}],
            lr=self.lr, betas=(0.9, 0.98),
        )
        total_steps = self.epochs * len(self.train_loader)
        warmup_steps = max(1, int(self.warmup_frac * total_steps))
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, warmup_cosine(total_steps, warmup_steps))
        return optimizer, scheduler

    def train_epoch(self):
        self.model.train()
        losses, norms = [], []
        for features, target in self.train_loader:
            pred = self.model(features)
            loss = F.mse_loss(pred, target)
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
            self.optimizer.step()
            self.scheduler.step()
            self.step += 1
            losses.append(loss.item())
            norms.append(grad_norm.item())
        return float(np.mean(losses)), float(np.mean(norms)), float(np.max(norms))

    def evaluate(self, loader=None):
        loader = loader or self.val_loader
        self.model.eval()
        preds, targets = [], []
        with torch.no_grad():
            for features, target in loader:
                preds.append(self.model(features))
                targets.append(target)
        preds, targets = torch.cat(preds), torch.cat(targets)
        return F.mse_loss(preds, targets).item(), preds, targets

    def fit(self):
        for epoch in range(1, self.epochs + 1):
            t0 = time.time()
            train_loss, mean_norm, max_norm = self.train_epoch()
            val_loss, _, _ = self.evaluate()
            lr = self.scheduler.get_last_lr()[0]
            print(f"epoch {epoch:2d} | train {train_loss:.4f} | val {val_loss:.4f} | lr {lr:.2e} | "
                  f"grad_norm mean {mean_norm:.3f} max {max_norm:.3f} | {time.time() - t0:.1f}s")
        return self
