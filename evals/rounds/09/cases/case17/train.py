import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FrameWindows(Dataset):
    """Windows of `history` frames (H, W, history) and the following frame."""

    def __init__(self, frames, history=2):
        self.frames = frames.astype(np.float32)
        self.history = history
        self.index = [(s, t) for s in range(frames.shape[0])
                      for t in range(history, frames.shape[1])]

    def __len__(self):
        return len(self.index)

    def __getitem__(self, k):
        s, t = self.index[k]
        past = np.moveaxis(self.frames[s, t - self.history:t], 0, -1)  # channels-last
        return torch.from_numpy(np.ascontiguousarray(past)), torch.from_numpy(self.frames[s, t])


class NextFrameNet(nn.Module):
    def __init__(self, history=2, width=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(history, width, 3, padding=1), nn.GELU(),
            nn.Conv2d(width, width, 3, padding=1), nn.GELU(),
            nn.Conv2d(width, 1, 3, padding=1),
        )

    def forward(self, window):
        b, h, w, c = window.shape
        x = window.reshape(b, c, h, w)
        # predict the change from the most recent frame
        return x[:, -1] + self.net(x)[:, 0]


def rmse(model, loader):
    model.eval()
    se = base = n = 0.0
    with torch.no_grad():
        for x, y in loader:
            se += ((model(x) - y) ** 2).sum().item()
            base += ((x[..., -1] - y) ** 2).sum().item()
            n += y.numel()
    model.train()
    return (se / n) ** 0.5, (base / n) ** 0.5


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data/plates.npz")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    frames = np.load(args.data)["frames"]
    scale = float(np.abs(frames).max())
    frames = frames / scale
    n_val = frames.shape[0] // 5
    train_dl = DataLoader(FrameWindows(frames[n_val:]), batch_size=32, shuffle=True)
    val_dl = DataLoader(FrameWindows(frames[:n_val]), batch_size=128)

    model = NextFrameNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for x, y in train_dl:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        r, b = rmse(model, val_dl)
        print(f"epoch {epoch + 1} train_mse {loss.item():.2e} val_rmse {r:.5f} (persistence {b:.5f})")

    r, b = rmse(model, val_dl)
    print(f"persistence_rmse={b:.5f}")
    print(f"val_rmse={r:.5f}")


if __name__ == "__main__":
    main()
