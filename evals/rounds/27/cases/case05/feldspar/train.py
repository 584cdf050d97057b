"""Train the lattice-energy GNN:  python -m feldspar.train"""
import argparse

import torch

from .model import LatticeGNN
from .structures import make_dataset


def batches(n, bs, gen):
    perm = torch.randperm(n, generator=gen)
    for i in range(0, n, bs):
        yield perm[i:i + bs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=2e-3)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    tr = [torch.from_numpy(a) for a in make_dataset(1500, args.seed)]
    va = [torch.from_numpy(a) for a in make_dataset(400, args.seed + 7)]
    y_mu, y_sd = tr[3].mean(), tr[3].std()
    print(f"train energies mean {y_mu:.3f} sd {y_sd:.3f}")

    model = LatticeGNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    for epoch in range(args.epochs):
        model.train()
        for idx in batches(len(tr[3]), 32, gen):
            X, A, M, y = (t[idx] for t in tr)
            loss = torch.nn.functional.smooth_l1_loss(model(X, A, M), (y - y_mu) / y_sd)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        model.eval()
        with torch.no_grad():
            pred = model(*va[:3]) * y_sd + y_mu
        mae = (pred - va[3]).abs().mean().item()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1}  loss {loss.item():.4f}  val_mae {mae:.4f}")
    print(f"baseline (predict train mean) mae {(va[3] - y_mu).abs().mean():.4f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
