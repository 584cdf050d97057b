import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

from motion import generate, MOVES, N_JOINTS


class ClipDataset(Dataset):
    def __init__(self, clips, labels):
        self.clips = torch.from_numpy(clips)
        self.labels = torch.from_numpy(labels)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        # (frames, joints) -> (joints, frames) for Conv1d
        return self.clips[i].t().contiguous(), self.labels[i]


class MoveNet(nn.Module):
    def __init__(self, n_classes, width=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(N_JOINTS, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.classifier = nn.Linear(width, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def split(clips, labels, val_every=5):
    idx = np.arange(len(labels))
    val = idx % val_every == 0
    return (clips[~val], labels[~val]), (clips[val], labels[val])


def evaluate(model, loader):
    model.eval()
    correct = n = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    return correct / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    clips, labels = generate(n_per_move=300, seed=args.seed)
    (tr_x, tr_y), (va_x, va_y) = split(clips, labels)
    train_ds, val_ds = ClipDataset(tr_x, tr_y), ClipDataset(va_x, va_y)

    train_loader = DataLoader(train_ds, batch_size=args.batch_size, num_workers=2,
                              persistent_workers=True, drop_last=True)
    val_loader = DataLoader(val_ds, batch_size=256)

    model = MoveNet(len(MOVES))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        t0, running, steps = time.time(), 0.0, 0
        for x, y in train_loader:
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            running += loss.item()
            steps += 1
        acc = evaluate(model, val_loader)
        print(f"epoch {epoch} loss={running / steps:.4f} val_acc={acc:.3f} ({time.time() - t0:.1f}s)")

    print(f"val_acc={evaluate(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
