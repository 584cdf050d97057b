import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from hover import N_USERS, datasets


class HoverGRU(nn.Module):
    def __init__(self, n_feat=4, hidden=48):
        super().__init__()
        self.gru = nn.GRU(n_feat, hidden, batch_first=True)
        self.cls = nn.Linear(hidden, N_USERS)

    def forward(self, x):
        _, h = self.gru(x)
        return self.cls(h[-1])


def run_epoch(model, loader, opt):
    model.train()
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    return total / len(loader.dataset)


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    correct = 0.0
    for xb, yb in loader:
        pred = model(xb).argmax(dim=1)
        correct += (pred == yb).float().mean().item()
    return correct / len(loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=3e-3)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    train_ds, val_ds = datasets(args.seed)
    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=100)
    model = HoverGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        loss = run_epoch(model, train_dl, opt)
        if epoch % 3 == 2:
            print(f"epoch {epoch + 1}  train_loss {loss:.4f}  val_acc {accuracy(model, val_dl):.4f}")
    print(f"val_acc={accuracy(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
