import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from yoyo.imu import make_split
from yoyo.data import TrickRecordings
from yoyo.model import ThrowerGRU


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(-1) == y).sum().item()
            total += len(y)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_ds = TrickRecordings(*make_split(150, 6, seed=args.seed))
    val_ds = TrickRecordings(*make_split(40, 6, seed=args.seed + 99))
    val_ds.set_stats(train_ds.mean, train_ds.std)

    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True,
                          num_workers=args.workers, drop_last=True,
                          generator=torch.Generator().manual_seed(args.seed))
    val_dl = DataLoader(val_ds, batch_size=128, num_workers=args.workers)

    model = ThrowerGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        seen, tot = 0, 0.0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
            seen += len(y)
        print(f"epoch {epoch} loss {tot / seen:.4f} val_acc {evaluate(model, val_dl):.3f}")
    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
