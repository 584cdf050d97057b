import argparse
import copy

import numpy as np
import torch
from torch import nn

from plant import CTX, HORIZON, dataset


class Forecaster(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, ch, 5, padding=2), nn.ReLU(),
            nn.Conv1d(ch, ch, 5, padding=2, stride=3), nn.ReLU(),
            nn.Conv1d(ch, ch, 5, padding=2, stride=3), nn.ReLU(),
        )
        self.head = nn.Linear(ch * 20, HORIZON)

    def forward(self, ctx):                                  # ctx: (B, CTX)
        h = self.conv(ctx.unsqueeze(1)).flatten(1)
        return ctx[:, -1:] + self.head(h)                    # predict the change from the last sample


class EMA:
    def __init__(self, model, decay=0.99):
        self.decay = decay
        self.shadow = copy.deepcopy(model).eval()
        self.shadow.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.data.mul_(self.decay).add_(p.data, alpha=1 - self.decay)


def split(windows, level):
    w = torch.from_numpy(windows) - level
    return w[:, :CTX], w[:, CTX:].detach()


def auroc(score, y):
    order = np.argsort(score)
    r = np.empty(len(score)); r[order] = np.arange(1, len(score) + 1)
    p = y == 1
    return (r[p].sum() - p.sum() * (p.sum() + 1) / 2) / (p.sum() * (~p).sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_w, _ = dataset(2000, 0, seed=1)
    test_w, test_y = dataset(400, 200, seed=2)
    level = float(train_w.mean())
    xtr, ytr = split(train_w, level)
    xte, yte = split(test_w, level)

    model = Forecaster()
    ema = EMA(model)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        tot = 0.0
        for s in range(0, len(xtr), 64):
            idx = perm[s:s + 64]
            loss = nn.functional.mse_loss(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update(model)
            tot += loss.item() * len(idx)
        with torch.no_grad():
            err = ((ema.shadow(xte) - yte) ** 2).mean(1).numpy()
        print(f"epoch {epoch + 1:2d}  mse {tot / len(xtr):.5f}  test_auroc {auroc(err, test_y):.4f}")
    print(f"test_auroc={auroc(err, test_y):.4f}")


if __name__ == "__main__":
    main()
