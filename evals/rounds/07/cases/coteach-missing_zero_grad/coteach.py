import argparse
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_data(n, n_classes, dim, rng, protos):
    y = rng.integers(0, n_classes, n)
    z = rng.normal(size=(n, 3))
    x = protos[0][y] + np.tanh(np.einsum("nk,nkd->nd", z, protos[1][y])) + 0.6 * rng.normal(size=(n, dim))
    return x.astype(np.float32), y


def flip_labels(y, rate, n_classes, rng):
    y = y.copy()
    flip = rng.random(len(y)) < rate
    y[flip] = (y[flip] + rng.integers(1, n_classes, flip.sum())) % n_classes
    return y


def mlp(dim, n_classes, hidden=128):
    return nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, n_classes))


def small_loss_indices(logits, y, keep):
    loss = F.cross_entropy(logits, y, reduction="none")
    return torch.argsort(loss.detach())[:keep]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--noise", type=float, default=0.4)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--ramp", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(2)
    C, D = 6, 20
    protos = (rng.normal(0, 0.9, size=(C, D)), rng.normal(0, 1.0, size=(C, 3, D)))
    xtr, ytr_clean = make_data(6000, C, D, rng, protos)
    xte, yte = make_data(2000, C, D, rng, protos)
    ytr = flip_labels(ytr_clean, args.noise, C, np.random.default_rng(args.seed + 100))
    print(f"actual noise rate {np.mean(ytr != ytr_clean):.3f}")
    xtr, ytr, xte, yte = map(torch.from_numpy, (xtr, ytr, xte, yte))

    net1, net2 = mlp(D, C), mlp(D, C)
    opt1 = torch.optim.SGD(net1.parameters(), lr=args.lr, momentum=0.9)
    opt2 = torch.optim.SGD(net2.parameters(), lr=args.lr, momentum=0.9)

    t0 = time.time()
    for epoch in range(args.epochs):
        forget = args.noise * min(1.0, epoch / args.ramp)
        net1.train(), net2.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            xb, yb = xtr[b], ytr[b]
            keep = max(1, int(round((1 - forget) * len(b))))
            out1, out2 = net1(xb), net2(xb)
            idx1 = small_loss_indices(out1, yb, keep)  # picked by net1, used to train net2
            idx2 = small_loss_indices(out2, yb, keep)  # picked by net2, used to train net1

            loss1 = F.cross_entropy(out1[idx2], yb[idx2])
            opt1.zero_grad()
            loss1.backward()
            opt1.step()

            loss2 = F.cross_entropy(out2[idx1], yb[idx1])
            opt1.zero_grad()
            loss2.backward()
            opt2.step()

        net1.eval(), net2.eval()
        with torch.no_grad():
            a1 = (net1(xte).argmax(1) == yte).float().mean().item()
            a2 = (net2(xte).argmax(1) == yte).float().mean().item()
            p = (net1(xte).softmax(1) + net2(xte).softmax(1)) / 2
            acc = (p.argmax(1) == yte).float().mean().item()
        print(f"epoch {epoch:2d} forget {forget:.2f}  acc1 {a1:.4f}  acc2 {a2:.4f}  ens {acc:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
