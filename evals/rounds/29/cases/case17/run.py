import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from belt import make_sessions
from scaling import SessionScaler


class SighCNN(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.c1 = nn.Conv1d(1, ch, 7, padding=3)
        self.c2 = nn.Conv1d(ch, ch, 7, padding=3, dilation=1)
        self.c3 = nn.Conv1d(ch, ch, 5, padding=4, dilation=2)
        self.fc = nn.Linear(2 * ch, 2)

    def forward(self, x):
        h = F.relu(self.c1(x.unsqueeze(1)))
        h = F.max_pool1d(F.relu(self.c2(h)), 2)
        h = F.relu(self.c3(h))
        pooled = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.fc(pooled)


def batches(x, y, bs, gen):
    idx = torch.randperm(len(x), generator=gen)
    for i in range(0, len(idx), bs):
        j = idx[i:i + bs]
        yield x[j], y[j]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.manual_seed(a.seed)

    xtr, ytr, str_ = make_sessions(24, 60, seed=a.seed)
    xva, yva, sva = make_sessions(10, 60, seed=a.seed + 1000)

    scaler = SessionScaler()
    xtr = scaler.fit_transform(xtr, str_)
    xva = scaler.transform(xva, sva)

    xtr, ytr = torch.from_numpy(xtr), torch.from_numpy(ytr)
    xva, yva = torch.from_numpy(xva), torch.from_numpy(yva)

    model = SighCNN()
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    gen = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        model.train()
        tot, n = 0.0, 0
        for xb, yb in batches(xtr, ytr, a.bs, gen):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
            n += len(xb)
        model.eval()
        with torch.no_grad():
            acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {ep:2d} loss {tot / n:.4f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
