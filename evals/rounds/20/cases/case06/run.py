import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from prep import build_matrix, resample
from tablet import record_signatures


class SignerNet(nn.Module):
    def __init__(self, points, n_signers):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(points, 128), nn.ReLU(),
            nn.Linear(128, 64), nn.ReLU(),
            nn.Linear(64, n_signers),
        )

    def forward(self, x):
        return self.net(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", type=int, default=48)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    sigs = record_signatures(seed=args.seed)
    n_val = len(sigs) // 5
    train_sigs, val_sigs = sigs[n_val:], sigs[:n_val]

    X = torch.from_numpy(build_matrix([s.pressure for s in train_sigs], args.points))
    y = torch.tensor([s.signer for s in train_sigs])

    model = SignerNet(args.points, 12)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 32):
            idx = perm[i:i + 32]
            loss = F.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f}")

    model.eval()
    correct = 0
    with torch.no_grad():
        for s in val_sigs:
            x = torch.from_numpy(resample(s.pressure, args.points))[None]
            correct += int(model(x).argmax(1).item() == s.signer)
    print(f"val_acc={correct / len(val_sigs):.4f}")


if __name__ == "__main__":
    main()
