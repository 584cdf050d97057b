import argparse

import torch
import torch.nn.functional as F

from .model import DelayGNN
from .network import build_network, simulate


def parse_args():
    p = argparse.ArgumentParser(prog="raildelay.train")
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--n-train", type=int, default=1500)
    p.add_argument("--n-val", type=int, default=400)
    p.add_argument("--batch-size", type=int, default=50)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--hops", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    adj = torch.tensor(build_network())
    xtr, ytr = simulate(adj.numpy(), args.n_train, seed=args.seed + 1)
    xva, yva = simulate(adj.numpy(), args.n_val, seed=99)

    model = DelayGNN(adj, hops=args.hops)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"stations={adj.shape[0]} params={n_params}")
    for epoch in range(args.epochs):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            loss = F.smooth_l1_loss(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            with torch.no_grad():
                mae = (model(xva) - yva).abs().mean().item()
            print(f"epoch {epoch + 1} loss {loss.item():.4f} val_mae {mae:.3f}")
    with torch.no_grad():
        mae = (model(xva) - yva).abs().mean().item()
    zero = yva.abs().mean().item()
    print(f"all-zero baseline mae={zero:.3f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
