import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from grow import dataset


class VoxNet(nn.Module):
    def __init__(self, ch=8, n_classes=3):
        super().__init__()
        self.f = nn.Sequential(
            nn.Conv3d(1, ch, 3, padding=1), nn.BatchNorm3d(ch), nn.ReLU(), nn.MaxPool3d(2),
            nn.Conv3d(ch, ch * 2, 3, padding=1), nn.BatchNorm3d(ch * 2), nn.ReLU(),
            nn.AdaptiveAvgPool3d(1), nn.Flatten(),
        )
        self.cls = nn.Linear(ch * 2, n_classes)

    def forward(self, x):
        return self.cls(self.f(x))


def run_epoch(model, loader, opt=None):
    """One pass; trains when an optimizer is given, otherwise only scores."""
    crit = nn.CrossEntropyLoss()
    correct = n = 0
    total = 0.0
    for x, y in loader:
        with torch.set_grad_enabled(opt is not None):
            out = model(x)
            loss = crit(out, y)
        if opt is not None:
            opt.zero_grad()
            loss.backward()
            opt.step()
        total += loss.item() * len(y)
        correct += (out.argmax(1) == y).sum().item()
        n += len(y)
    return total / n, correct / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)

    Xtr, ytr = dataset(900, seed=a.seed)
    # the survey team exported validation scans grouped by growth form
    Xva, yva = dataset(300, seed=555, sort_by_form=True)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(Xva), torch.from_numpy(yva)), batch_size=50)

    model = VoxNet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for ep in range(a.epochs):
        model.train()
        tl, ta = run_epoch(model, train_dl, opt)
        vl, va = run_epoch(model, val_dl)
        print(f"epoch {ep + 1}: train_loss={tl:.3f} train_acc={ta:.3f} val_loss={vl:.3f} val_acc={va:.3f}")
    print(f"val_acc={va:.4f}")


if __name__ == "__main__":
    main()
