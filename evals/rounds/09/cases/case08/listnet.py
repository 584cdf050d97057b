import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from metrics import ndcg_at_k


def make_queries(n_queries, n_docs, n_feat, rng):
    w = rng.normal(size=n_feat)
    w[n_feat // 2:] *= 0.2  # half of the features barely matter
    q_bias = rng.normal(0, 1.0, size=(n_queries, 1, n_feat))
    x = rng.normal(size=(n_queries, n_docs, n_feat)) + q_bias
    latent = np.tanh(x @ w / np.sqrt(n_feat)) + 0.3 * np.sin(2 * x[..., 0])
    latent += rng.normal(0, 0.15, size=latent.shape)
    # grades by within-query quantile: 3 is rare, 0 common
    ranks = latent.argsort(1).argsort(1) / (n_docs - 1)
    rel = np.digitize(ranks, [0.5, 0.8, 0.95])
    return torch.tensor(x, dtype=torch.float32), torch.tensor(rel, dtype=torch.float32)


class Scorer(nn.Module):
    def __init__(self, n_feat, hidden=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_feat, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):  # (Q, L, F) -> (Q, L)
        return self.mlp(x).squeeze(-1)


def listnet_loss(scores, rel):
    target = F.softmax(rel, dim=1)
    return -(target * F.log_softmax(scores, dim=1)).sum(1).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=600)
    ap.add_argument("--docs", type=int, default=24)
    ap.add_argument("--features", type=int, default=12)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch-queries", type=int, default=16)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    x, rel = make_queries(args.queries, args.docs, args.features, rng)
    n_tr = int(0.8 * args.queries)
    x_tr, r_tr, x_va, r_va = x[:n_tr], rel[:n_tr], x[n_tr:], rel[n_tr:]

    model = Scorer(args.features)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, args.batch_queries):
            idx = perm[i:i + args.batch_queries]
            loss = listnet_loss(model(x_tr[idx]), r_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                nd = ndcg_at_k(model(x_va), r_va)
            print(f"epoch {epoch + 1:3d} listnet_loss {loss.item():.4f} val_ndcg@10 {nd:.4f}")

    model.eval()
    with torch.no_grad():
        nd = ndcg_at_k(model(x_va), r_va)
    print(f"val_ndcg@10={nd:.4f}")


if __name__ == "__main__":
    main()
