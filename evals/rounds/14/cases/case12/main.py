import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from hivesound import N_BINS, hive_recordings


class SpectrumNet(nn.Module):
    def __init__(self, hidden=64, p_drop=0.3):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(N_BINS, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(hidden, 2),
        )

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, model, lr, epochs):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-4)
        self.epochs = epochs

    def train_epoch(self, loader):
        self.model.train()
        total, n = 0.0, 0
        for xb, yb in loader:
            loss = F.cross_entropy(self.model(xb), yb)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(yb)
            n += len(yb)
        return total / n

    def validate(self, loader):
        self.model.eval
        correct, n = 0, 0
        with torch.no_grad():
            for xb, yb in loader:
                correct += (self.model(xb).argmax(1) == yb).sum().item()
                n += len(yb)
        return correct / n

    def fit(self, train_loader, val_loader):
        for epoch in range(self.epochs):
            loss = self.train_epoch(train_loader)
            acc = self.validate(val_loader)
            if epoch % 5 == 0 or epoch == self.epochs - 1:
                print(f"epoch {epoch:2d}  loss {loss:.4f}  val_acc {acc:.4f}")
        return acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    xtr, ytr, _ = hive_recordings(40, 60, seed=1)
    xva, yva, _ = hive_recordings(12, 60, seed=2)
    train_loader = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True)
    val_loader = DataLoader(TensorDataset(xva, yva), batch_size=60, shuffle=False)

    trainer = Trainer(SpectrumNet(), args.lr, args.epochs)
    acc = trainer.fit(train_loader, val_loader)
    print(f"{time.time() - t0:.1f}s")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
