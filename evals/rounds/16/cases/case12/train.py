import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from scaling import SessionScaler
from synth import make_sessions


class WindowSet(Dataset):
    def __init__(self, sessions, scaler):
        xs, ys = [], []
        for sid, (x, y) in sessions.items():
            xs.append(scaler.transform(sid, x))
            ys.append(y)
        self.x = torch.from_numpy(np.concatenate(xs).astype(np.float32))
        self.y = torch.from_numpy(np.concatenate(ys))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class BlinkCNN(nn.Module):
    def __init__(self, ch=4, width=24):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(ch, width, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(width, 2),
        )

    def forward(self, x):
        return self.net(x)


def f1_score(model, loader):
    model.eval()
    tp = fp = fn = 0
    with torch.no_grad():
        for x, y in loader:
            p = model(x).argmax(1)
            tp += ((p == 1) & (y == 1)).sum().item()
            fp += ((p == 1) & (y == 0)).sum().item()
            fn += ((p == 0) & (y == 1)).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=17)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    sessions = make_sessions(30, 120, seed=args.seed)
    train_s = {f"s{i:02d}": s for i, s in enumerate(sessions[:22])}
    val_s = {f"s{i:02d}": s for i, s in enumerate(sessions[22:], start=22)}
    scaler = SessionScaler().fit(train_s)
    train_ds, val_ds = WindowSet(train_s, scaler), WindowSet(val_s, scaler)

    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True, num_workers=2,
                          persistent_workers=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = BlinkCNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        for x, y in train_dl:
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_f1 {f1_score(model, val_dl):.3f}")
    print(f"val_f1={f1_score(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
