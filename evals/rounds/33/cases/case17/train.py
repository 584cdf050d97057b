import argparse
import json
import os

import numpy as np
import torch

from data import splits
from features import fit_stats, standardize
from model import PitchNet


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="artifacts")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    (Xtr, ytr), _ = splits()
    stats = fit_stats(Xtr)
    y_mean, y_std = float(ytr.mean()), float(ytr.std())
    stats["y_mean"], stats["y_std"] = y_mean, y_std
    X = torch.from_numpy(standardize(Xtr, stats))
    y = torch.from_numpy((ytr - y_mean) / y_std)

    model = PitchNet(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    n = len(X)
    for epoch in range(args.epochs):
        perm = torch.randperm(n)
        total = 0.0
        for i in range(0, n, 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(X[idx]), y[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 10 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:3d} train_mse={total / n:.4f}")

    os.makedirs(args.out, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(args.out, "model.pt"))
    with open(os.path.join(args.out, "stats.json"), "w") as f:
        json.dump(stats, f)
    print("saved", args.out)


if __name__ == "__main__":
    main()
