import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from data import N_USERS, Standardizer, StrokeDataset, synth_strokes


def make_loaders(batch_size):
    Xtr, ytr = synth_strokes(6000, seed=1)
    Xva, yva = synth_strokes(1500, seed=2)
    scaler = Standardizer().fit(Xtr)
    train_ds = StrokeDataset(Xtr, ytr, transform=scaler)
    val_ds = StrokeDataset(Xva, yva)
    kw = dict(num_workers=2, persistent_workers=True)
    return (DataLoader(train_ds, batch_size=batch_size, shuffle=True, **kw),
            DataLoader(val_ds, batch_size=512, **kw))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    train_loader, val_loader = make_loaders(args.batch_size)

    model = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, N_USERS))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    ce = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in train_loader:
            loss = ce(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
        model.eval()
        correct = n = 0
        with torch.no_grad():
            for xb, yb in val_loader:
                correct += (model(xb).argmax(1) == yb).sum().item(); n += len(yb)
        print(f"epoch {epoch + 1} loss={loss.item():.4f} val_acc={correct / n:.3f}")
    print(f"val_acc={correct / n:.4f}")


if __name__ == "__main__":
    main()
