import argparse
import itertools

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from toydata import make_blobs_manifold


def mlp(dims, last_act=False):
    layers = []
    for i in range(len(dims) - 1):
        layers.append(nn.Linear(dims[i], dims[i + 1]))
        if i < len(dims) - 2 or last_act:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class AutoEncoder(nn.Module):
    def __init__(self, d_in, d_z=8):
        super().__init__()
        self.encoder = mlp([d_in, 128, 64, d_z])
        self.decoder = mlp([d_z, 64, 128, d_in])

    def forward(self, x):
        return self.decoder(self.encoder(x))


class ClusteringLayer(nn.Module):
    def __init__(self, centers, alpha=1.0):
        super().__init__()
        self.centers = nn.Parameter(centers.clone())
        self.alpha = alpha

    def forward(self, z):
        d2 = torch.cdist(z, self.centers).pow(2)
        q = (1 + d2 / self.alpha).pow(-(self.alpha + 1) / 2)
        return q / q.sum(1, keepdim=True)


def target_distribution(q):
    w = q ** 2 / q.sum(0)
    return w / w.sum(1, keepdim=True)


def kmeans(x, k, n_init=10, iters=100, seed=0):
    rng = np.random.default_rng(seed)
    best = (np.inf, None, None)
    for _ in range(n_init):
        c = x[rng.choice(len(x), k, replace=False)]
        for _ in range(iters):
            lab = ((x[:, None] - c[None]) ** 2).sum(-1).argmin(1)
            c_new = np.stack([x[lab == j].mean(0) if (lab == j).any() else c[j] for j in range(k)])
            if np.allclose(c_new, c):
                break
            c = c_new
        inertia = ((x - c[lab]) ** 2).sum()
        if inertia < best[0]:
            best = (inertia, c, lab)
    return best[1], best[2]


def cluster_acc(y_true, y_pred, k):
    best = 0.0
    for perm in itertools.permutations(range(k)):
        best = max(best, float((np.array(perm)[y_pred] == y_true).mean()))
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--pretrain-epochs", type=int, default=30)
    ap.add_argument("--dec-iters", type=int, default=600)
    ap.add_argument("--target-update", type=int, default=100)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_np, y = make_blobs_manifold(k=args.k)
    x = torch.from_numpy(x_np)

    # phase 1: autoencoder pretraining
    ae = AutoEncoder(x.shape[1])
    opt = torch.optim.Adam(ae.parameters(), lr=1e-3)
    for ep in range(1, args.pretrain_epochs + 1):
        perm = torch.randperm(len(x))
        tot = 0.0
        for i in range(0, len(x), args.batch_size):
            xb = x[perm[i:i + args.batch_size]]
            loss = F.mse_loss(ae(xb), xb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        if ep % 10 == 0:
            print(f"pretrain epoch {ep} recon {tot / len(x):.4f}")

    # phase 2: DEC. Only the encoder and the centres are optimised from here on.
    encoder = ae.encoder
    with torch.no_grad():
        z = encoder(x).numpy()
    centers, km_labels = kmeans(z, args.k, seed=args.seed)
    print(f"kmeans_acc={cluster_acc(y, km_labels, args.k):.4f}")
    cluster = ClusteringLayer(torch.from_numpy(centers).float())
    opt = torch.optim.SGD(list(encoder.parameters()) + list(cluster.parameters()), lr=0.01, momentum=0.9)

    g = torch.Generator().manual_seed(args.seed)
    for it in range(args.dec_iters):
        if it % args.target_update == 0:
            with torch.no_grad():
                q_all = cluster(encoder(x))
                p_all = target_distribution(q_all)  # fixed target until the next refresh
                pred = q_all.argmax(1).numpy()
            print(f"iter {it:4d} acc {cluster_acc(y, pred, args.k):.4f}")
        idx = torch.randint(0, len(x), (args.batch_size,), generator=g)
        q = cluster(encoder(x[idx]))
        loss = F.kl_div(q.log(), p_all[idx], reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()

    with torch.no_grad():
        pred = cluster(encoder(x)).argmax(1).numpy()
    print(f"cluster_acc={cluster_acc(y, pred, args.k):.4f}")


if __name__ == "__main__":
    main()
