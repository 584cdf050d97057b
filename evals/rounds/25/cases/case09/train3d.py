import sys
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from volumes import CLASSES, VesicleVolumes


@dataclass
class Hparams:
    train_per_class: int = 200
    val_per_class: int = 60
    batch_size: int = 24
    val_batch_size: int = 20
    epochs: int = 8
    lr: float = 2e-3
    dropout: float = 0.3
    seed: int = 0


class VoxNet(nn.Module):
    def __init__(self, n_classes, dropout):
        super().__init__()
        def block(cin, cout):
            return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1), nn.BatchNorm3d(cout),
                                 nn.ReLU(inplace=True), nn.MaxPool3d(2))
        self.body = nn.Sequential(block(1, 8), block(8, 16), block(16, 32))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(dropout), nn.Linear(32 * 8, n_classes))

    def forward(self, x):
        return self.head(self.body(x))


def evaluate(model, loader):
    correct = total = 0
    with torch.inference_mode():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def fit(hp: Hparams):
    torch.manual_seed(hp.seed)
    train_ds = VesicleVolumes(hp.train_per_class, seed=1)
    val_ds = VesicleVolumes(hp.val_per_class, seed=2)
    train_dl = DataLoader(train_ds, batch_size=hp.batch_size, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=hp.val_batch_size)

    model = VoxNet(len(CLASSES), hp.dropout)
    opt = torch.optim.Adam(model.parameters(), lr=hp.lr)
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    for epoch in range(hp.epochs):
        seen, run = 0, 0.0
        for x, y in train_dl:
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(y)
            seen += len(y)
        acc = evaluate(model, val_dl)
        print(f"epoch {epoch + 1}/{hp.epochs} train_loss={run / seen:.4f} val_acc={acc:.3f}")
    return evaluate(model, val_dl)


if __name__ == "__main__":
    hp = Hparams()
    if len(sys.argv) > 1:
        hp.seed = int(sys.argv[1])
    acc = fit(hp)
    print(f"val_acc={acc:.4f}")
