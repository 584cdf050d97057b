import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from catalog import N_NOTES, build_catalog, simulate_customers

PAD = 0


class SetEncoder(nn.Module):
    """DeepSets: phi per element, masked mean+max pooling, rho on the pooled vector."""

    def __init__(self, n_tokens, dim=48):
        super().__init__()
        self.emb = nn.Embedding(n_tokens, dim, padding_idx=PAD)
        self.phi = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.rho = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, items):
        pad = items == PAD                                    # True where there is no note
        h = self.phi(self.emb(items))
        keep = (~pad).unsqueeze(-1).float()
        mean = (h * keep).sum(dim=1) / keep.sum(dim=1).clamp(min=1)
        mx = h.masked_fill(pad.unsqueeze(-1), float("-inf")).max(dim=1).values
        return self.rho(torch.cat([mean, mx], dim=1))


class Recommender(nn.Module):
    def __init__(self, perfume_notes, log_prior, dim=48):
        super().__init__()
        self.encoder = SetEncoder(N_NOTES + 1, dim)
        self.register_buffer("perfume_notes", perfume_notes)
        self.register_buffer("log_prior", log_prior)

    def forward(self, history):
        users = self.encoder(history)
        items = self.encoder(self.perfume_notes)
        return users @ items.t() + self.log_prior            # raw scores (B, n_perfumes)

    @torch.no_grad()
    def predict_proba(self, history):
        return F.softmax(self(history), dim=-1)


def recall_at_k(probs, target, k=10):
    topk = probs.topk(k, dim=1).indices
    return (topk == target[:, None]).any(dim=1).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    catalog = build_catalog()
    htr, ytr = map(torch.from_numpy, simulate_customers(8000, args.seed + 2, catalog))
    hva, yva = map(torch.from_numpy, simulate_customers(1500, 999, catalog))
    counts = torch.bincount(ytr, minlength=len(catalog[0])).float() + 1.0
    log_prior = (counts / counts.sum()).log()               # fixed popularity prior, not trained

    model = Recommender(torch.from_numpy(catalog[0]), log_prior)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(htr))
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            loss = F.cross_entropy(model(htr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        r10 = recall_at_k(model.predict_proba(hva), yva)
        base = recall_at_k(log_prior.expand(len(yva), -1), yva)
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_recall@10 {r10:.4f} (popularity {base:.4f})")
    print(f"val_recall_at_10={r10:.4f}")


if __name__ == "__main__":
    main()
