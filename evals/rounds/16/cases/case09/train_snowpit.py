import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from profiles import CHANNELS, SnowpitSet


class PitNet(nn.Module):
    def __init__(self, n_classes=4, width=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(len(CHANNELS), width, 3, padding=1), nn.ReLU(),
            nn.Conv1d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv1d(width, width, 3, padding=2, dilation=2), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Linear(2 * width, width), nn.ReLU(), nn.Linear(width, n_classes))

    def forward(self, x):
        h = self.conv(x)
        pooled = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.head(pooled)


def make_loader(ds, batch_size, train):
    return DataLoader(ds, batch_size=batch_size, shuffle=True, drop_last=train)


@torch.no_grad()
def predict(model, loader):
    model.eval()
    return torch.cat([model(x).argmax(1) for x, _ in loader])


def accuracy(model, loader):
    preds = predict(model, loader)
    labels = torch.cat([y for _, y in loader])
    return (preds == labels).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_ds = SnowpitSet(4000, seed=args.seed)
    val_ds = SnowpitSet(1000, seed=args.seed + 1, cuts=train_ds.cuts)
    train_dl = make_loader(train_ds, args.batch_size, train=True)
    val_dl = make_loader(val_ds, 256, train=False)

    model = PitNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        seen = tot = 0
        for x, y in train_dl:
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
            seen += len(y)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} train_loss {tot / seen:.4f} val_acc {accuracy(model, val_dl):.3f}")
    print(f"val_acc={accuracy(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
