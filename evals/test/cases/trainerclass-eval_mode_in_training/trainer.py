import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Trainer:
    def __init__(self, model, train_set, val_set, *, batch_size=32, lr=0.05, weight_decay=1e-4,
                 epochs=30, val_every=10, seed=0):
        self.model = model
        self.epochs = epochs
        self.val_every = val_every
        self.lr = lr
        self.weight_decay = weight_decay
        self.criterion = nn.CrossEntropyLoss()
        gen = torch.Generator().manual_seed(seed)
        self.train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True,
                                       drop_last=True, generator=gen)
        self.val_loader = DataLoader(val_set, batch_size=512)
        self.optimizer = self.configure_optimizers()
        self.global_step = 0
        self.best_val_acc = -1.0
        self.best_step = 0
        self.curve = []

    def configure_optimizers(self):
        return torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9,
                               weight_decay=self.weight_decay)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        loss_sum, correct, n = 0.0, 0, 0
        for x, y in loader:
            logits = self.model(x)
            loss_sum += self.criterion(logits, y).item() * len(y)
            correct += (logits.argmax(dim=1) == y).sum().item()
            n += len(y)
        return loss_sum / n, correct / n

    def _validate_and_track(self):
        val_loss, val_acc = self.evaluate(self.val_loader)
        self.curve.append((self.global_step, val_loss, val_acc))
        if val_acc > self.best_val_acc:
            self.best_val_acc = val_acc
            self.best_step = self.global_step
        return val_loss, val_acc

    def train_epoch(self, epoch):
        self.model.train()
        running, count = 0.0, 0
        for step, (x, y) in enumerate(self.train_loader):
            if step % self.val_every == 0:
                self._validate_and_track()

            logits = self.model(x)
            loss = self.criterion(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.global_step += 1
            running += loss.item()
            count += 1
        return running / count

    def fit(self):
        for epoch in range(1, self.epochs + 1):
            t0 = time.perf_counter()
            train_loss = self.train_epoch(epoch)
            val_loss, val_acc = self._validate_and_track()
            print(f"epoch {epoch:3d} | train_loss {train_loss:.4f} | val_loss {val_loss:.4f} | "
                  f"val_acc {val_acc:.4f} | {time.perf_counter() - t0:.2f}s")
        print(f"best val_acc {self.best_val_acc:.4f} at step {self.best_step}")
        return self.curve
