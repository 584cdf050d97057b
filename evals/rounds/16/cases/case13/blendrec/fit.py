import argparse

import torch
import torch.nn.functional as F

from .catalogue import simulate_blends
from .model import BlendScorer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=2)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    sets, rating = simulate_blends(5000, seed=args.seed)
    sets, rating = torch.from_numpy(sets), torch.from_numpy(rating)
    n_tr = 4000
    model = BlendScorer()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = F.mse_loss(model(sets[idx]), rating[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1} mse {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(sets[n_tr:])
    y = rating[n_tr:]
    rmse = (pred - y).pow(2).mean().sqrt().item()
    r2 = 1 - (pred - y).pow(2).sum().item() / (y - y.mean()).pow(2).sum().item()
    print(f"val_rmse={rmse:.4f}")
    print(f"val_r2={r2:.4f}")


if __name__ == "__main__":
    main()
