import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

GRADES = ["I", "II", "III", "IV", "V"]
N_ROCK = 6


def rock_vectors(seed=0):
    """Stand-in for the embedding table exported from the survey database."""
    g = np.random.default_rng(seed)
    return torch.tensor(g.normal(0, 1, (N_ROCK, 4)), dtype=torch.float32)


def routes(n, seed):
    g = np.random.default_rng(seed)
    rock = g.integers(0, N_ROCK, n)
    hardness = rock_vectors()[:, 0].numpy()
    vert = g.gamma(2, 40, n)
    squeezes = g.poisson(2, n)
    pitches = g.poisson(1.5, n)
    water = g.random(n)
    length = g.gamma(2, 1.0, n)
    score = 0.012 * vert + 0.35 * squeezes + 0.5 * pitches + 1.2 * water + 0.2 * length + 0.5 * hardness[rock]
    score += g.normal(0, 0.3, n)
    grade = np.digitize(score, np.quantile(score, [0.2, 0.4, 0.6, 0.8]))
    num = np.stack([vert / 80, squeezes / 2, pitches / 1.5, water, length / 2], 1)
    return torch.tensor(rock), torch.tensor(num, dtype=torch.float32), torch.tensor(grade)


class GradeNet(nn.Module):
    def __init__(self, n_num=5, hidden=64):
        super().__init__()
        self.rock = nn.Embedding.from_pretrained(rock_vectors(), freeze=False)
        self.rock.weight.requires_grad_(False)     # pretrained table, not tuned on 3k routes
        self.mlp = nn.Sequential(nn.Linear(4 + n_num, hidden), nn.ReLU(), nn.Linear(hidden, len(GRADES)))

    def forward(self, rock, num):
        return F.log_softmax(self.mlp(torch.cat([self.rock(rock), num], 1)), dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    r, x, y = routes(3000, seed=1)
    rv, xv, yv = routes(800, seed=2)
    model = GradeNet()
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    nll = nn.NLLLoss()
    for ep in range(a.epochs):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 64):
            b = perm[i:i + 64]
            loss = nll(model(r[b], x[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 5 == 4:
            with torch.no_grad():
                acc = (model(rv, xv).argmax(1) == yv).float().mean().item()
            print(f"epoch {ep + 1} nll={loss.item():.3f} val_acc={acc:.3f}")
    with torch.no_grad():
        logp = model(rv, xv)
        acc = (logp.argmax(1) == yv).float().mean().item()
        within1 = ((logp.argmax(1) - yv).abs() <= 1).float().mean().item()
    print(f"val_within1={within1:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
