import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from signatures import build


class Encoder(nn.Module):
    def __init__(self, d_in=40, d_emb=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, 128), nn.ReLU(),
            nn.Linear(128, 128), nn.ReLU(),
            nn.Linear(128, d_emb),
        )

    def forward(self, x):
        return self.net(x)


def contrastive_loss(e1, e2, same, margin=1.0):
    d = F.pairwise_distance(e1, e2)
    return (same * d.pow(2) + (1 - same) * F.relu(margin - d).pow(2)).mean()


class PairSampler:
    def __init__(self, X, y, rng):
        self.X, self.y, self.rng = X, y, rng
        self.by_class = {c: np.flatnonzero(y == c) for c in np.unique(y)}
        self.classes = np.array(sorted(self.by_class))

    def sample(self, n):
        a = self.rng.integers(0, len(self.y), n)
        same = self.rng.random(n) < 0.5
        b = np.empty(n, dtype=int)
        for i in range(n):
            ca = self.y[a[i]]
            if same[i]:
                b[i] = self.rng.choice(self.by_class[ca])
            else:
                cb = self.rng.choice(self.classes[self.classes != ca])
                b[i] = self.rng.choice(self.by_class[cb])
        return (torch.from_numpy(self.X[a]), torch.from_numpy(self.X[b]),
                torch.from_numpy(same.astype(np.float32)))


def nearest_prototype(query_emb, protos):
    dists = torch.cdist(query_emb, protos)
    return dists.topk(1, dim=1).indices.squeeze(1)


@torch.no_grad()
def run_episodes(encoder, X, y, n_way, k_shot, n_query, n_episodes, rng):
    encoder.eval()
    classes = np.unique(y)
    accs = []
    for _ in range(n_episodes):
        chosen = rng.choice(classes, n_way, replace=False)
        sup, qry, qlab = [], [], []
        for j, c in enumerate(chosen):
            idx = rng.permutation(np.flatnonzero(y == c))[: k_shot + n_query]
            sup.append(X[idx[:k_shot]])
            qry.append(X[idx[k_shot:]])
            qlab += [j] * n_query
        sup = encoder(torch.from_numpy(np.stack(sup)).reshape(n_way * k_shot, -1))
        protos = sup.reshape(n_way, k_shot, -1).mean(1)
        q = encoder(torch.from_numpy(np.concatenate(qry)))
        pred = nearest_prototype(q, protos)
        accs.append((pred == torch.tensor(qlab)).float().mean().item())
    return float(np.mean(accs)), float(np.std(accs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-way", type=int, default=5)
    ap.add_argument("--k-shot", type=int, default=5)
    ap.add_argument("--n-query", type=int, default=10)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--pairs", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--margin", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    (Xb, yb), (Xn, yn) = build()
    mu, sd = Xb.mean(0), Xb.std(0) + 1e-6
    Xb, Xn = (Xb - mu) / sd, (Xn - mu) / sd

    enc = Encoder()
    opt = torch.optim.Adam(enc.parameters(), lr=args.lr)
    sampler = PairSampler(Xb, yb, rng)
    running = 0.0
    for step in range(1, args.steps + 1):
        enc.train()
        x1, x2, same = sampler.sample(args.pairs)
        loss = contrastive_loss(enc(x1), enc(x2), same, args.margin)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
        if step % 300 == 0:
            acc, _ = run_episodes(enc, Xn, yn, args.n_way, args.k_shot, args.n_query, 50, np.random.default_rng(7))
            print(f"step {step:5d} loss {running / 300:.4f} novel_5way_acc {acc:.3f}")
            running = 0.0

    acc, sd_acc = run_episodes(enc, Xn, yn, args.n_way, args.k_shot, args.n_query, 300, np.random.default_rng(99))
    print(f"episodes=300 acc_std={sd_acc:.4f}")
    print(f"episode_acc={acc:.4f}")


if __name__ == "__main__":
    main()
