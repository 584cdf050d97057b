import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 5


def make_traces(n, rng):
    t = np.linspace(0, 1, 256, dtype=np.float32)
    X = np.zeros((n, 256), np.float32)
    y = rng.integers(0, N_CLASSES, n)
    for i in range(n):
        f = rng.uniform(6, 10)
        env = 1 - np.exp(-t * 40)
        sig = np.sin(2 * math.pi * f * t)
        k = y[i]
        if k == 1:   # buzz: extra high partial
            sig = sig + 0.5 * np.sin(2 * math.pi * 5 * f * t)
        elif k == 2:  # slow attack
            env = 1 - np.exp(-t * 4)
        elif k == 3:  # detuned: beating
            sig = sig + np.sin(2 * math.pi * (f + 1.5) * t)
        elif k == 4:  # cracked: random clicks
            clicks = (rng.random(256) < 0.04).astype(np.float32) * 2.0
            sig = sig + clicks
        X[i] = env * sig + rng.normal(0, 0.7, 256)
    return X, y


class ReedNet(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, width, 9, padding=4), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(width, width, 9, padding=4), nn.ReLU(), nn.AdaptiveAvgPool1d(8),
        )
        self.head = nn.Linear(width * 8, N_CLASSES)

    def forward(self, x):
        h = self.features(x.unsqueeze(1)).flatten(1)
        return self.head(h)

    def predict_proba(self, x):
        return F.softmax(self(x), dim=-1)


def run_epoch(model, X, y, opt, crit, bs):
    model.train()
    perm = torch.randperm(len(X))
    total = 0.0
    for i in range(0, len(X), bs):
        idx = perm[i:i + bs]
        out = model.predict_proba(X[idx])
        loss = crit(out, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    return total / len(X)


@torch.no_grad()
def accuracy(model, X, y):
    model.eval()
    return (model.predict_proba(X).argmax(1) == y).float().mean().item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--bs", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    Xtr, ytr = make_traces(1000, rng)
    Xva, yva = make_traces(500, rng)
    Xtr, Xva = torch.tensor(Xtr), torch.tensor(Xva)
    ytr, yva = torch.tensor(ytr), torch.tensor(yva)
    model = ReedNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()
    for ep in range(args.epochs):
        loss = run_epoch(model, Xtr, ytr, opt, crit, args.bs)
        print(f"epoch {ep} loss {loss:.4f} val_acc {accuracy(model, Xva, yva):.3f}")
    print(f"val_acc={accuracy(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
