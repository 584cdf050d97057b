import argparse

import numpy as np
import torch
import torch.nn as nn

from clicklog import FIELDS, simulate_log, wide_indices


class WideAndDeep(nn.Module):
    def __init__(self, n_buckets, emb_dim=8, hidden=(64, 32)):
        super().__init__()
        self.wide = nn.EmbeddingBag(n_buckets, 1, mode="sum")
        nn.init.zeros_(self.wide.weight)
        self.wide_bias = nn.Parameter(torch.zeros(1))
        self.embs = nn.ModuleList([nn.Embedding(k, emb_dim) for k in FIELDS.values()])
        layers, d = [], emb_dim * len(FIELDS)
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        layers.append(nn.Linear(d, 1))
        self.deep = nn.Sequential(*layers)

    def wide_params(self):
        return [self.wide.weight, self.wide_bias]

    def deep_params(self):
        return list(self.embs.parameters()) + list(self.deep.parameters())

    def forward(self, wide_idx, cat):
        wide_logit = self.wide(wide_idx).squeeze(1) + self.wide_bias
        e = torch.cat([emb(cat[:, j]) for j, emb in enumerate(self.embs)], dim=1)
        return wide_logit + self.deep(e).squeeze(1)

    @torch.no_grad()
    def predict_proba(self, wide_idx, cat):
        return torch.sigmoid(self(wide_idx, cat))


def auc(y, s):
    order = np.argsort(s)
    r = np.empty(len(s))
    r[order] = np.arange(1, len(s) + 1)
    pos = y == 1
    return (r[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


def to_tensors(cols, clicks, n_buckets):
    wide = torch.from_numpy(wide_indices(cols, n_buckets))
    cat = torch.from_numpy(np.stack([cols[f] for f in FIELDS], 1))
    return wide, cat, torch.from_numpy(clicks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--buckets", type=int, default=2 ** 12)
    ap.add_argument("--wide-lr", type=float, default=0.05)
    ap.add_argument("--deep-lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tr = to_tensors(*simulate_log(60000, seed=100), args.buckets)
    va = to_tensors(*simulate_log(15000, seed=200), args.buckets)
    print(f"train ctr {tr[2].mean().item():.4f}  val ctr {va[2].mean().item():.4f}")

    model = WideAndDeep(args.buckets)
    wide_opt = torch.optim.Adagrad(model.wide_params(), lr=args.wide_lr)
    deep_opt = torch.optim.Adam(model.deep_params(), lr=args.deep_lr)
    crit = nn.BCEWithLogitsLoss()

    n = len(tr[2])
    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(n)
        tot = 0.0
        for i in range(0, n, args.batch_size):
            b = perm[i:i + args.batch_size]
            logits = model(tr[0][b], tr[1][b])
            loss = crit(logits, tr[2][b])
            wide_opt.zero_grad()
            deep_opt.zero_grad()
            loss.backward()
            wide_opt.step()
            deep_opt.step()
            tot += loss.item() * len(b)
        model.eval()
        p = model.predict_proba(va[0], va[1])
        ll = nn.functional.binary_cross_entropy(p, va[2]).item()
        val_auc = auc(va[2].numpy(), p.numpy())
        print(f"epoch {epoch} train_logloss {tot / n:.4f} val_logloss {ll:.4f} val_auc {val_auc:.4f}")
    print(f"val_auc={val_auc:.4f}")


if __name__ == "__main__":
    main()
