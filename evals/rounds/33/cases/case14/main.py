import argparse
from contextlib import contextmanager

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from net import HailNet
from voxels import dataset


@contextmanager
def inference(model):
    """Switch to inference behaviour and restore the previous mode afterwards."""
    prev = model.training
    model.train(prev)
    with torch.no_grad():
        yield model
    model.train(prev)


def evaluate(model, loader):
    hit = n = 0
    with inference(model):
        for x, y in loader:
            hit += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    Xtr, ytr = dataset(200, seed=31)
    Xva, yva = dataset(80, seed=32)
    train_dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(Xva, yva), batch_size=80)
    model = HailNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for ep in range(a.epochs):
        model.train()
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {ep} loss={loss.item():.3f} val_acc={evaluate(model, val_dl):.3f}")
    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
