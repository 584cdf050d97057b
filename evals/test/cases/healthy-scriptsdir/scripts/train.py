"""Train the kernel-variety classifier on data/kernels.csv.

Can be launched from any working directory; the data folder is located
relative to this file.
"""
import argparse
import sys
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
sys.path.insert(0, str(ROOT))

from grainclf.losses import SmoothedNLLLoss  # noqa: E402
from grainclf.model import KernelNet  # noqa: E402


def load_table(path):
    table = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=np.float32)
    return table[:, :-1], table[:, -1].astype(np.int64)


def accuracy(log_probs, target):
    return (log_probs.argmax(dim=1) == target).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--smoothing", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    X, y = load_table(DATA_DIR / "kernels.csv")
    rng = np.random.default_rng(args.seed)
    idx = rng.permutation(len(y))
    n_test = len(y) // 5
    test_idx, train_idx = idx[:n_test], idx[n_test:]

    mu, sigma = X[train_idx].mean(0), X[train_idx].std(0)
    X = (X - mu) / sigma
    X_tr, y_tr = torch.from_numpy(X[train_idx]), torch.from_numpy(y[train_idx])
    X_te, y_te = torch.from_numpy(X[test_idx]), torch.from_numpy(y[test_idx])

    loader = DataLoader(TensorDataset(X_tr, y_tr), batch_size=32, shuffle=True,
                        generator=torch.Generator().manual_seed(args.seed))
    model = KernelNet(X.shape[1], int(y.max()) + 1)
    criterion = SmoothedNLLLoss(args.smoothing)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=20, gamma=0.5)

    for epoch in range(1, args.epochs + 1):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            opt.step()
        sched.step()
        if epoch % 10 == 0:
            model.eval()
            with torch.no_grad():
                lp_tr, lp_te = model(X_tr), model(X_te)
                print(f"epoch {epoch:3d}  train_loss {criterion(lp_tr, y_tr).item():.4f}  "
                      f"train_acc {accuracy(lp_tr, y_tr):.3f}  test_acc {accuracy(lp_te, y_te):.3f}")

    model.eval()
    with torch.no_grad():
        print(f"test accuracy: {accuracy(model(X_te), y_te):.4f}")


if __name__ == "__main__":
    main()
