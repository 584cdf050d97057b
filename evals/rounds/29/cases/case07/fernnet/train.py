import argparse

import torch

from .dendrites import make_dataset, N_FEAT
from .model import FernNet


def to_tensors(arrs):
    return [torch.from_numpy(a) for a in arrs]


def r2(pred, y):
    return 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser(prog="python -m fernnet.train")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    ftr, atr, mtr, ytr = to_tensors(make_dataset(2000, args.seed))
    fva, ava, mva, yva = to_tensors(make_dataset(500, args.seed + 1))
    y_mu, y_sd = ytr.mean(), ytr.std()

    model = FernNet(N_FEAT)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            j = perm[i:i + args.batch_size]
            pred = model(ftr[j], atr[j], mtr[j])
            loss = ((pred - (ytr[j] - y_mu) / y_sd) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        if epoch % 10 == 0:
            print(f"epoch {epoch:2d} mse {tot / len(perm):.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(fva, ava, mva) * y_sd + y_mu
    print(f"val_r2={r2(pred, yva):.4f}")


if __name__ == "__main__":
    main()
