import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Standardizer:
    def fit(self, x):
        self.mean = x.mean(0, keepdims=True)
        self.std = x.std(0, keepdims=True) + 1e-6
        return self

    def __call__(self, x):
        return (x - self.mean) / self.std


class QuadratDataset(Dataset):
    def __init__(self, x, counts, transform=None):
        if transform is not None:
            x = transform(x)
        self.x = torch.from_numpy(x.astype(np.float32))
        self.y = torch.from_numpy(np.log1p(counts).astype(np.float32))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def load(path):
    d = np.load(path)
    return d["x"], d["y"]


def make_model(n_in, hidden):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.SiLU(),
                         nn.Linear(hidden, hidden), nn.SiLU(),
                         nn.Linear(hidden, 1))


def rmse(model, loader):
    model.eval()
    se, n = 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            se += ((model(x).squeeze(-1) - y) ** 2).sum().item()
            n += len(y)
    return (se / n) ** 0.5


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    tr_x, tr_y = load("data/train.npz")
    va_x, va_y = load("data/val.npz")
    scaler = Standardizer().fit(tr_x)
    train_ds = QuadratDataset(tr_x, tr_y, transform=scaler)
    val_ds = QuadratDataset(va_x, va_y)
    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = make_model(tr_x.shape[1], args.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()
    for epoch in range(args.epochs):
        model.train()
        for x, y in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(x).squeeze(-1), y)
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} train_rmse_log {rmse(model, train_dl):.4f} val_rmse_log {rmse(model, val_dl):.4f}")
    print(f"val_rmse_log={rmse(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
