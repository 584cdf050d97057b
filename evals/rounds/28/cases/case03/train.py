import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from features import build_dataset, standardize

NUMERIC = [0, 1, 3, 4]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y, day = build_dataset()
    train_mask = day < 560          # last ~4.5 months are held out
    Xtr, Xva = standardize(X[train_mask], X[~train_mask], NUMERIC)
    ytr, yva = y[train_mask], y[~train_mask]
    print(f"train rows={len(Xtr)} val rows={len(Xva)} tiers={np.bincount(ytr)}")

    loader = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                        batch_size=args.batch_size, shuffle=True,
                        generator=torch.Generator().manual_seed(args.seed))
    model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(),
                          nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    crit = nn.CrossEntropyLoss()

    Xva_t, yva_t = torch.from_numpy(Xva), torch.from_numpy(yva)
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item() * len(xb)
        if epoch % 10 == 9:
            model.eval()
            with torch.no_grad():
                acc = (model(Xva_t).argmax(1) == yva_t).float().mean().item()
            print(f"epoch {epoch + 1} loss={running / len(Xtr):.4f} val_acc={acc:.3f}")

    model.eval()
    with torch.no_grad():
        acc = (model(Xva_t).argmax(1) == yva_t).float().mean().item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
