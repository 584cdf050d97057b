import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

from .data import PKSampler, make_products
from .losses import batch_hard_triplet
from .model import Embedder


@torch.no_grad()
def recall_at_1(model, x, labels):
    """Leave-one-out retrieval: is the nearest other image the same product?"""
    model.eval()
    emb = model(x)
    model.train()
    d = torch.cdist(emb, emb)
    d.fill_diagonal_(float("inf"))
    return (labels[d.argmin(dim=1)] == labels).float().mean().item()


def main():
    ap = argparse.ArgumentParser(prog="python -m metric.train")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--p", type=int, default=16)
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--margin", type=float, default=0.2)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    x_tr, y_tr = make_products(600, views=8, seed=args.seed)
    x_va, y_va = make_products(150, views=8, seed=args.seed + 1)     # unseen products
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_sampler=PKSampler(y_tr, args.p, args.k, seed=args.seed))

    model = Embedder(x_tr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[int(args.epochs * 0.7)], gamma=0.2)
    print(f"before training: val_recall_at_1={recall_at_1(model, x_va, y_va):.4f}")

    for epoch in range(1, args.epochs + 1):
        tot = act = 0.0
        for xb, yb in loader:
            loss, active = batch_hard_triplet(model(xb), yb, args.margin)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
            opt.step()
            tot += loss.item()
            act += active
        sched.step()
        if epoch % 2 == 0:
            print(f"epoch {epoch:2d}  triplet {tot / len(loader):.4f}  active {act / len(loader):.2f}  "
                  f"val_recall_at_1 {recall_at_1(model, x_va, y_va):.4f}")

    print(f"METRIC val_recall_at_1={recall_at_1(model, x_va, y_va):.4f}")


if __name__ == "__main__":
    main()
