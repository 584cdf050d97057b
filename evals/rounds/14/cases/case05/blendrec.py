import argparse
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from pantry import N_CUISINES, N_INGREDIENTS, make_blends


class BagEncoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(N_INGREDIENTS, dim, mode="mean")

    def forward(self, items):            # items: [B, k] ingredient ids
        return self.emb(items)


class CuisineClassifier(nn.Module):
    def __init__(self, encoder, dim=32):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(dim, N_CUISINES)

    def forward(self, items):
        return self.head(self.encoder(items))


class MissingIngredientHead(nn.Module):
    def __init__(self, encoder, dim=32, hidden=64):
        super().__init__()
        self.encoder = encoder
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, N_INGREDIENTS))

    def forward(self, items):
        scores = self.mlp(self.encoder(items))
        # never recommend what is already in the blend
        return scores.scatter(1, items, float("-inf"))


def leave_one_out(blends, rng):
    ctx, tgt = [], []
    for b in blends:
        j = rng.randrange(len(b))
        tgt.append(b[j])
        ctx.append(b[:j] + b[j + 1 :])
    return torch.tensor(ctx), torch.tensor(tgt)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pretrain-epochs", type=int, default=6)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    blends, cuisines = make_blends(8000, seed=1)
    val_blends, _ = make_blends(2000, seed=2)
    items, cuis = torch.tensor(blends), torch.tensor(cuisines)

    # ---- stage 1: cuisine pretraining
    encoder = BagEncoder()
    clf = CuisineClassifier(encoder)
    opt = torch.optim.Adam(clf.parameters(), lr=args.lr)
    for epoch in range(args.pretrain_epochs):
        perm = torch.randperm(len(cuis))
        for i in range(0, len(perm), 128):
            idx = perm[i : i + 128]
            loss = F.cross_entropy(clf(items[idx]), cuis[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"pretrain {epoch} loss {loss.item():.4f}")

    # ---- stage 2: recommendation head on fixed embeddings
    encoder.requires_grad_(False)
    rec = MissingIngredientHead(encoder)
    opt = torch.optim.Adam([p for p in rec.parameters() if p.requires_grad], lr=args.lr)
    vctx, vtgt = leave_one_out(val_blends, random.Random(99))
    for epoch in range(args.epochs):
        ctx, tgt = leave_one_out(blends, rng)       # a fresh held-out item every epoch
        perm = torch.randperm(len(tgt))
        total = 0.0
        for i in range(0, len(perm), 128):
            idx = perm[i : i + 128]
            logp = F.log_softmax(rec(ctx[idx]), dim=1)
            loss = F.nll_loss(logp, tgt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        with torch.no_grad():
            top5 = rec(vctx).topk(5, dim=1).indices
            hit5 = (top5 == vtgt[:, None]).any(1).float().mean().item()
        if epoch % 5 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:2d} nll {total / len(tgt):.4f} val_hit5 {hit5:.4f}")

    print(f"{time.time() - t0:.1f}s")
    print(f"val_hit5={hit5:.4f}")


if __name__ == "__main__":
    main()
