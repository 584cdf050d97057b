import argparse

import torch
import torch.nn.functional as F

from cellar import N_GUESTS, N_WINES, simulate
from flights import FlightScorer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tr = [torch.from_numpy(a) for a in simulate(6000, seed=args.seed)]
    va = [torch.from_numpy(a) for a in simulate(1000, seed=args.seed + 1)]
    model = FlightScorer(N_WINES, N_GUESTS)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    n = len(tr[0])
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n)
        for i in range(0, n, args.batch_size):
            j = perm[i:i + args.batch_size]
            w, m, g, r = (t[j] for t in tr)
            loss = F.mse_loss(model(w, m, g), r)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            model.eval()
            with torch.no_grad():
                rmse = F.mse_loss(model(*va[:3]), va[3]).sqrt().item()
            print(f"epoch {epoch + 1} train_mse {loss.item():.4f} val_rmse {rmse:.4f}")

    model.eval()
    with torch.no_grad():
        rmse = F.mse_loss(model(*va[:3]), va[3]).sqrt().item()
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
