import argparse

import torch
import torch.nn.functional as F

from .frameworks import NODE_TYPES, make_dataset
from .model import MOFRegressor


def batches(n, size, shuffle=True):
    idx = torch.randperm(n) if shuffle else torch.arange(n)
    for i in range(0, n, size):
        yield idx[i:i + size]


def evaluate(model, data):
    X, A, M, y = data
    model.eval()
    with torch.no_grad():
        mae = (model(X, A, M) - y).abs().mean().item()
    model.train()
    return mae


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    train = [torch.from_numpy(a) for a in make_dataset(2400, seed=3)]
    val = [torch.from_numpy(a) for a in make_dataset(500, seed=4)]
    print(f"train={len(train[3])} val={len(val[3])} mean_uptake={train[3].mean():.3f}")

    model = MOFRegressor(len(NODE_TYPES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for b in batches(len(train[3]), args.batch_size):
            X, A, M, y = (t[b] for t in train)
            loss = F.smooth_l1_loss(model(X, A, M), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_mae={evaluate(model, val):.4f}")
    print(f"val_mae={evaluate(model, val):.4f}")


if __name__ == "__main__":
    main()
