import argparse
import json
import os

import numpy as np
import torch

from common import ForceNet, r2
from jumps import FEATURES, simulate_jumps


class Standardizer:
    """Stores the mean and the multiplicative scale (1/std) of the training features."""

    def fit(self, X):
        self.mean = X.mean(axis=0)
        self.scale = 1.0 / (X.std(axis=0) + 1e-8)
        return self

    def transform(self, X):
        return (X - self.mean) * self.scale

    def to_json(self):
        return {"mean": self.mean.tolist(), "scale": self.scale.tolist(), "features": FEATURES}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=80)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="artifacts")
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = simulate_jumps(args.n, seed=args.seed)
    norm = Standardizer().fit(X)
    y_mean, y_std = float(y.mean()), float(y.std())
    Xt = torch.from_numpy(norm.transform(X).astype(np.float32))
    yt = torch.from_numpy((y - y_mean) / y_std)

    n_val = args.n // 5
    model = ForceNet(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(args.n - n_val) + n_val
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = torch.mean((model(Xt[idx]) - yt[idx]) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 20 == 19:
            model.eval()
            with torch.no_grad():
                print(f"epoch {epoch + 1} val_r2={r2(model(Xt[:n_val]), yt[:n_val]).item():.4f}")

    os.makedirs(args.out, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(args.out, "model.pt"))
    meta = norm.to_json()
    meta.update({"y_mean": y_mean, "y_std": y_std})
    with open(os.path.join(args.out, "norm.json"), "w") as f:
        json.dump(meta, f, indent=2)
    print("saved", args.out)


if __name__ == "__main__":
    main()
