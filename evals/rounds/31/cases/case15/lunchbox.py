import argparse

import numpy as np
import torch
import torch.nn as nn

GROUPS = 6  # fruit, veg, grain, protein, sweet, snack
MAX_ITEMS = 8
MEALS = 4
PROFILES = np.array([
    [2, 2, 2, 2, .3, .3],
    [.5, .3, .5, .3, 1, 4],
    [.5, 1, 1, 4, .2, .3],
    [1, .2, .5, .3, 4, 1],
])


def pack_boxes(n, rng):
    X = np.zeros((n, MAX_ITEMS, GROUPS + 2), np.float32)
    mask = np.zeros((n, MAX_ITEMS), bool)
    y = rng.integers(0, MEALS, n)
    for i in range(n):
        k = rng.integers(2, MAX_ITEMS + 1)
        p = PROFILES[y[i]] / PROFILES[y[i]].sum()
        g = rng.choice(GROUPS, k, p=p)
        X[i, :k, :GROUPS] = np.eye(GROUPS)[g]
        X[i, :k, GROUPS] = rng.uniform(0.2, 1.0, k)
        X[i, :k, GROUPS + 1] = rng.normal(0, 1, k)
        mask[i, :k] = True
    return torch.tensor(X), torch.tensor(mask), torch.tensor(y)


class BoxEncoder(nn.Module):
    def __init__(self, d_item, hidden=64):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(d_item, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, MEALS))

    def pool(self, h, mask):
        m = mask.unsqueeze(-1).float()
        return (h * m).sum(dim=1) / m.sum(dim=1).clamp_min(1)

    def forward(self, items, mask):
        logits = self.rho(self.pool(self.phi(items), mask))
        return torch.log_softmax(logits, dim=0)


def score_boxes(model, X, M, y):
    """Scores boxes one at a time, the way the packing app calls the model."""
    hits = 0
    for i in range(len(X)):
        pred = model(X[i:i + 1], M[i:i + 1]).argmax(-1).item()
        hits += int(pred == y[i].item())
    return hits / len(X)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    Xtr, Mtr, ytr = pack_boxes(2000, rng)
    Xva, Mva, yva = pack_boxes(500, rng)
    model = BoxEncoder(GROUPS + 2)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    nll = nn.NLLLoss()
    for ep in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), args.bs):
            idx = perm[i:i + args.bs]
            loss = nll(model(Xtr[idx], Mtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = score_boxes(model, Xva, Mva, yva)
        print(f"epoch {ep} nll {loss.item():.4f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
