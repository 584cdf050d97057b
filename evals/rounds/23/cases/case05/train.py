import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import CellNet, predict_with_flips
from voxels import CLASSES, make_split


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for xb, yb in loader:
        logits = predict_with_flips(model, xb)
        correct += (logits.argmax(1) == yb).sum().item()
        total += len(yb)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    Xtr, ytr = make_split(200, seed=11)
    Xva, yva = make_split(80, seed=22)
    train_loader = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)), batch_size=32, shuffle=True)
    val_loader = DataLoader(TensorDataset(torch.from_numpy(Xva), torch.from_numpy(yva)), batch_size=40)

    model = CellNet(len(CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        tot = 0.0
        for xb, yb in train_loader:
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
        acc = evaluate(model, val_loader)
        print(f"epoch {epoch + 1} loss={tot / len(ytr):.4f} val_acc={acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
