import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_TYPES = 12  # rice, fish, tempura, egg, pickles, tofu, veg, fruit, sausage, noodles, meat, dessert
STYLE_WEIGHTS = np.array([
    [3, 3, 2, 2, 2, 1, 1, 0.5, 0.2, 0.5, 1.5, 0.5],
    [2, 2, 1, 1, 3, 2, 2, 1, 0.1, 0.5, 0.5, 1.5],
    [2, 0.5, 1, 2, 0.2, 0.5, 0.5, 2, 3, 2, 1, 2],
    [2, 0.05, 1, 1, 2, 3, 3, 1, 0.05, 1, 0.05, 1],
])


def make_boxes(n, seed):
    rng = np.random.default_rng(seed)
    x = np.zeros((n, 8, N_TYPES + 1), dtype=np.float32)
    mask = np.zeros((n, 8), dtype=bool)
    style = rng.integers(0, 4, n)
    for i in range(n):
        k = rng.integers(3, 9)
        p = STYLE_WEIGHTS[style[i]] / STYLE_WEIGHTS[style[i]].sum()
        items = rng.choice(N_TYPES, k, p=p)
        x[i, np.arange(k), items] = 1
        x[i, :k, -1] = rng.gamma(3, 20, k) / 60 * (0.6 if style[i] == 2 else 1.0)
        mask[i, :k] = True
    return torch.from_numpy(x), torch.from_numpy(mask), torch.from_numpy(style)


class BentoEncoder(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(N_TYPES + 1, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, items, mask):
        h = self.phi(items) * mask.unsqueeze(-1)
        pooled = h.sum(1) / mask.sum(1, keepdim=True)
        return F.log_softmax(self.rho(pooled), dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--clip", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    x, m, y = make_boxes(3000, args.seed)
    model = BentoEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    crit = nn.NLLLoss()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(2400)
        tot = 0.0
        for b in range(0, 2400, 64):
            idx = perm[b:b + 64]
            loss = crit(model(x[idx], m[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
            tot += loss.item()
        print(f"epoch {epoch + 1} loss {tot / 38:.4f} grad_norm {gnorm.item():.2f}")
    model.eval()
    with torch.no_grad():
        acc = (model(x[2400:], m[2400:]).argmax(-1) == y[2400:]).float().mean().item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
