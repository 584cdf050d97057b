"""Class-incremental learning with experience replay.

Six classes of synthetic sensor signatures arrive as three tasks of two
classes each. One shared 6-way head; after each task we keep a small memory
of past examples and rehearse them alongside the new task.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

from replay import ReplayBuffer

TASKS = [(0, 1), (2, 3), (4, 5)]


def make_blobs(n_per_class, dim, seed, centers=None):
    rng = np.random.default_rng(seed)
    if centers is None:
        centers = rng.normal(0, 1.0, size=(6, dim))
    xs, ys = [], []
    for c in range(6):
        xs.append(centers[c] + rng.normal(0, 0.9, size=(n_per_class, dim)))
        ys.append(np.full(n_per_class, c))
    return (torch.tensor(np.concatenate(xs), dtype=torch.float32),
            torch.tensor(np.concatenate(ys)), centers)


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        pred = model(x).argmax(1)
    model.train()
    per_task = [(pred[(y == a) | (y == b)] == y[(y == a) | (y == b)]).float().mean().item()
                for a, b in TASKS]
    return (pred == y).float().mean().item(), per_task


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, default=20)
    ap.add_argument("--epochs-per-task", type=int, default=8)
    ap.add_argument("--memory-per-class", type=int, default=60)
    ap.add_argument("--replay-batch", type=int, default=64)
    ap.add_argument("--replay-weight", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_tr, y_tr, centers = make_blobs(600, args.dim, seed=31)
    x_te, y_te, _ = make_blobs(300, args.dim, seed=32, centers=centers)

    model = nn.Sequential(nn.Linear(args.dim, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                          nn.Linear(128, 6))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.CrossEntropyLoss()
    memory = ReplayBuffer(args.memory_per_class, seed=args.seed)

    for t, classes in enumerate(TASKS):
        sel = (y_tr == classes[0]) | (y_tr == classes[1])
        xt, yt = x_tr[sel], y_tr[sel]
        for epoch in range(args.epochs_per_task):
            perm = torch.randperm(len(xt))
            for i in range(0, len(perm), 32):
                idx = perm[i:i + 32]
                loss_new = criterion(model(xt[idx]), yt[idx])
                loss = loss_new
                if len(memory):
                    loss_old = memory.replay_loss(model, criterion, args.replay_batch)
                    loss = loss_new + args.replay_weight * loss_old
                opt.zero_grad()
                loss.backward()
                opt.step()
        memory.add(xt, yt)
        acc, per_task = evaluate(model, x_te, y_te)
        print(f"after task {t + 1} {classes}: acc={acc:.3f} per-task=" +
              " ".join(f"{a:.2f}" for a in per_task) + f" memory={len(memory)}")

    acc, _ = evaluate(model, x_te, y_te)
    print(f"final_acc={acc:.4f}")


if __name__ == "__main__":
    main()
