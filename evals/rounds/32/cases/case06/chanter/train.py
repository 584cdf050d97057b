import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from .config import Config
from .data import build_splits
from .model import ReedNet


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=Config.epochs)
    p.add_argument("--seed", type=int, default=Config.seed)
    p.add_argument("--lr", type=float, default=Config.lr)
    args = p.parse_args()
    cfg = Config(epochs=args.epochs, seed=args.seed, lr=args.lr)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)

    train_ds, val_ds = build_splits(cfg)
    train_dl = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)
    model = ReedNet(cfg.n_reeds)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        running = 0.0
        for x, y in train_dl:
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            running += loss.item() * len(y)
        acc = evaluate(model, val_dl)
        print(f"epoch {epoch + 1:02d} loss {running / len(train_ds):.4f} val_acc {acc:.3f}")
    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
