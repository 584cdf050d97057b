import argparse

import numpy as np
import torch

from .data import fold_in_split, split_users, synth_clicks
from .metrics import ndcg_at_k, recall_at_k
from .model import MultDAE, multinomial_nll


def parse_args():
    ap = argparse.ArgumentParser(prog="python -m multdae.train")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch-size", type=int, default=100)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=0.0)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--dropout", type=float, default=0.5)
    ap.add_argument("--n-heldout", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args()


def score(model, fold_in):
    model.eval()
    with torch.no_grad():
        s = model(torch.from_numpy(fold_in)).numpy()
    s[fold_in > 0] = -np.inf  # never recommend what the user already clicked
    return s


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    X = synth_clicks()
    train_X, heldout_X = split_users(X, args.n_heldout)
    val_in, val_target = fold_in_split(heldout_X)
    n_items = X.shape[1]

    model = MultDAE(n_items, args.hidden, args.dropout)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.wd)
    item_counts = torch.from_numpy(train_X.sum(0))
    model.init_popularity_bias(item_counts)

    train_t = torch.from_numpy(train_X)
    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(train_t))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            xb = train_t[perm[i:i + args.batch_size]]
            loss = multinomial_nll(model(xb), xb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            tot += loss.item() * len(xb)
        if epoch % 10 == 0 or epoch == 1:
            s = score(model, val_in)
            print(f"epoch {epoch:3d} train_nll {tot / len(perm):.3f} "
                  f"recall@20 {recall_at_k(s, val_target, 20):.4f} ndcg@50 {ndcg_at_k(s, val_target, 50):.4f}")

    pop = np.tile(item_counts.numpy(), (len(val_in), 1))
    pop[val_in > 0] = -np.inf
    print(f"popularity_recall@20={recall_at_k(pop, val_target, 20):.4f}")
    s = score(model, val_in)
    print(f"val_ndcg@50={ndcg_at_k(s, val_target, 50):.4f}")
    print(f"val_recall@20={recall_at_k(s, val_target, 20):.4f}")


if __name__ == "__main__":
    main()
