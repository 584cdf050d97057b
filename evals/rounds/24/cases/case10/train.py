import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from cellar import simulate, CellarRecords, STAGES


def make_loader(ds, batch_size, shuffle=True):
    return DataLoader(ds, batch_size=batch_size, shuffle=shuffle)


def expected_stage(logits):
    p = logits.softmax(-1)
    return (p * torch.arange(STAGES, dtype=p.dtype)).sum(-1).round().long()


def predict(model, loader):
    model.eval()
    out = []
    with torch.no_grad():
        for x, _ in loader:
            out.append(expected_stage(model(x)))
    return torch.cat(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = simulate(4000, seed=args.seed)
    train_ds = CellarRecords(X[:3200], y[:3200])
    val_ds = CellarRecords(X[3200:], y[3200:], train_ds.mean, train_ds.std)
    train_loader = make_loader(train_ds, args.batch_size)
    val_loader = make_loader(val_ds, 256)

    model = nn.Sequential(nn.Linear(7, 64), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, STAGES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        tot = 0.0
        for x, t in train_loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(x), t)
            loss.backward()
            opt.step()
            tot += loss.item() * len(t)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} loss={tot / len(train_ds):.4f}")

    pred = predict(model, val_loader)
    exact = (pred == val_ds.y).float().mean().item()
    mae = (pred - val_ds.y).abs().float().mean().item()
    print(f"val_mae={mae:.4f}")
    print(f"val_exact={exact:.4f}")


if __name__ == "__main__":
    main()
