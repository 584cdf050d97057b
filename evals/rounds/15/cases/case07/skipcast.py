import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from logs import N_BUCKETS, simulate


class SkipModel(nn.Module):
    def __init__(self, n_users=100, dim=16):
        super().__init__()
        self.tag_emb = nn.Embedding(N_BUCKETS, dim, padding_idx=0)
        self.user_emb = nn.Embedding(n_users, dim)
        self.num = nn.Linear(2, dim)
        self.out = nn.Sequential(nn.Linear(3 * dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, users, tags, num):
        mask = (tags != 0).float().unsqueeze(-1)
        topic = (self.tag_emb(tags) * mask).sum(1) / mask.sum(1).clamp(min=1)
        u = self.user_emb(users)
        z = torch.cat([topic * u, u, self.num(num)], dim=1)
        return self.out(z).squeeze(-1)


def roc_auc(scores, labels):
    """Mann-Whitney formulation of the ROC-AUC."""
    scores, labels = np.asarray(scores), np.asarray(labels)
    ranks = np.argsort(scores) + 1
    n_pos = labels.sum()
    n_neg = len(labels) - n_pos
    return (ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tr = [torch.from_numpy(a) for a in simulate(20000, seed=args.seed + 1)]
    va = [torch.from_numpy(a) for a in simulate(4000, seed=2718)]
    model = SkipModel()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(tr[0]))
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            u, t, n, y = (a[b] for a in tr)
            loss = F.binary_cross_entropy_with_logits(model(u, t, n), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            logits = model(*va[:3])
            vloss = F.binary_cross_entropy_with_logits(logits, va[3]).item()
        auc = roc_auc(torch.sigmoid(logits).numpy(), va[3].numpy())
        print(f"epoch {epoch + 1} train_loss {loss.item():.4f} val_logloss {vloss:.4f} val_auc {auc:.4f}")
    print(f"val_auc={auc:.4f}")


if __name__ == "__main__":
    main()
