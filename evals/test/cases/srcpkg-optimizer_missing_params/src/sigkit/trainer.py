import os
import time

import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, cfg, device="cpu"):
        self.model = model.to(device)
        self.cfg = cfg
        self.device = device
        self.optimizer = self.configure_optimizers()
        self.history = []

    def configure_optimizers(self):
        cfg = self.cfg
        decay, no_decay = [], []
        for name, param in self.model.encoder.named_parameters():
            if param.ndim <= 1:
                no_decay.append(param)
            else:
                decay.append(param)

        param_groups = [
            {"params": decay, "weight_decay": cfg.weight_decay},
            {"params": no_decay, "weight_decay": 0.0},
        ]
        head_group = {
            "params": list(self.model.head.parameters()),
            "lr": cfg.lr * cfg.head_lr_mult,
            "weight_decay": cfg.weight_decay,
        }
        return torch.optim.AdamW(param_groups, lr=cfg.lr)

    def train_epoch(self, loader, epoch):
        self.model.train()
        total, seen = 0.0, 0
        for step, (signals, labels) in enumerate(loader):
            signals = signals.to(self.device)
            labels = labels.to(self.device)

            logits = self.model(signals)
            loss = F.cross_entropy(logits, labels)

            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

            total += loss.item() * labels.size(0)
            seen += labels.size(0)
            if step % self.cfg.log_every == 0:
                print(f"  epoch {epoch} step {step:3d} loss {loss.item():.4f}")
        return total / seen

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct, total, loss_sum = 0, 0, 0.0
        for signals, labels in loader:
            signals = signals.to(self.device)
            labels = labels.to(self.device)
            logits = self.model(signals)
            loss_sum += F.cross_entropy(logits, labels, reduction="sum").item()
            correct += (logits.argmax(dim=1) == labels).sum().item()
            total += labels.numel()
        return loss_sum / total, correct / total

    def save_checkpoint(self, path, epoch, val_acc):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        torch.save(
            {
                "epoch": epoch,
                "val_acc": val_acc,
                "model": self.model.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "config": self.cfg.to_dict(),
            },
            path,
        )

    def fit(self, train_loader, val_loader):
        best = 0.0
        for epoch in range(1, self.cfg.epochs + 1):
            t0 = time.time()
            train_loss = self.train_epoch(train_loader, epoch)
            val_loss, val_acc = self.evaluate(val_loader)
            self.history.append((epoch, train_loss, val_loss, val_acc))
            print(
                f"epoch {epoch:2d} | train_loss {train_loss:.4f} | val_loss {val_loss:.4f} "
                f"| val_acc {val_acc:.3f} | {time.time() - t0:.1f}s"
            )
            if val_acc > best:
                best = val_acc
                self.save_checkpoint(os.path.join(self.cfg.out_dir, "best.pt"), epoch, val_acc)
        return best
