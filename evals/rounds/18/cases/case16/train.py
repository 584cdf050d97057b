import argparse

import torch
import torch.nn.functional as F

from groups import N_GAMES, simulate_groups
from setnet import GroupEncoder


def to_t(*arrs):
    return [torch.from_numpy(a) for a in arrs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    Xtr, Mtr, Ytr = to_t(*simulate_groups(5000, seed=1))
    Xva, Mva, Yva = to_t(*simulate_groups(1000, seed=2))

    model = GroupEncoder(Xtr.shape[-1], N_GAMES)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        total = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            loss = F.cross_entropy(model(Xtr[b], Mtr[b]), Ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            top1 = (model(Xva, Mva).argmax(-1) == Yva).float().mean().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} train_ce={total / len(Xtr):.4f} val_top1={top1:.4f}")
    print(f"val_top1={top1:.4f}")


if __name__ == "__main__":
    main()
