import argparse
import time

import torch
import torch.nn.functional as F

from corpus import N_CONCEPTS, make_pairs
from model import ParaModel


def auc(scores, labels):
    order = scores.argsort()
    ranks = torch.empty(len(scores))
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=torch.float)
    pos = labels == 1
    n1, n0 = pos.sum().item(), (~pos).sum().item()
    return (ranks[pos].sum().item() - n1 * (n1 + 1) / 2) / (n1 * n0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    a, b, y = make_pairs(12000, seed=10)
    va, vb, vy = make_pairs(1500, seed=20)
    a, b, y = torch.tensor(a), torch.tensor(b), torch.tensor(y, dtype=torch.float)
    va, vb, vy = torch.tensor(va), torch.tensor(vb), torch.tensor(vy)

    model = ParaModel(vocab=1 + 2 * N_CONCEPTS)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(y))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i : i + args.batch_size]
            logit = model(a[idx], b[idx])
            loss = F.binary_cross_entropy_with_logits(logit, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            val_auc = auc(model(va, vb), vy)
        print(f"epoch {epoch} loss {tot / len(y):.4f} val_auc {val_auc:.4f}")

    print(f"({time.time() - t0:.1f}s)")
    print(f"val_auc={val_auc:.4f}")


if __name__ == "__main__":
    main()
