#!/usr/bin/env python
"""Change-ringing method classifier (single script).

Rows are permutations of N_BELLS bells. A method is a cyclic sequence of
"changes"; each change is a set of disjoint adjacent swaps (the places that
are *not* made). We simulate touches, observe them with striking faults and
learn to name the method from a window of WINDOW rows.
"""
import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_BELLS = 6
N_PAIRS = N_BELLS - 1
WINDOW = 24          # rows per example
N_METHODS = 6
LEAD_LEN = 12        # changes per lead of every synthetic method


# --------------------------------------------------------------------------
# method library
# --------------------------------------------------------------------------
def random_change(rng):
    """A legal change: disjoint adjacent swaps, at least one swap."""
    while True:
        swaps = np.zeros(N_PAIRS, dtype=bool)
        i = 0
        while i < N_PAIRS:
            if rng.random() < 0.6:
                swaps[i] = True
                i += 2
            else:
                i += 1
        if swaps.any():
            return swaps


def build_library(seed):
    rng = np.random.default_rng(seed)
    return [np.stack([random_change(rng) for _ in range(LEAD_LEN)]) for _ in range(N_METHODS)]


def apply_change(row, swaps):
    row = row.copy()
    for i in np.flatnonzero(swaps):
        row[i], row[i + 1] = row[i + 1], row[i]
    return row


def ring_touch(method, rng, fault_rate):
    """Ring WINDOW rows of `method` and return the observed transitions."""
    row = rng.permutation(N_BELLS)
    phase = rng.integers(LEAD_LEN)
    rows = [row]
    for k in range(WINDOW - 1):
        swaps = method[(phase + k) % LEAD_LEN].copy()
        if rng.random() < fault_rate:          # a bell swaps where it should lie
            j = rng.integers(N_PAIRS)
            swaps[j] = ~swaps[j]
            if j > 0:
                swaps[j - 1] = False
            if j < N_PAIRS - 1:
                swaps[j + 1] = False
        row = apply_change(row, swaps)
        rows.append(row)
    rows = np.stack(rows)
    # observed transitions: which adjacent places exchanged bells
    trans = (rows[1:, :-1] == rows[:-1, 1:]) & (rows[1:, 1:] == rows[:-1, :-1])
    return trans.astype(np.float32)           # (WINDOW-1, N_PAIRS)


def make_dataset(library, n, rng, fault_rate):
    X = np.zeros((n, N_PAIRS, WINDOW - 1), dtype=np.float32)
    y = rng.integers(0, N_METHODS, n)
    for i in range(n):
        X[i] = ring_touch(library[y[i]], rng, fault_rate).T
    # a little sensor noise on the onset detector
    X += rng.normal(0, 0.25, X.shape).astype(np.float32)
    return torch.from_numpy(X), torch.from_numpy(y).long()


# --------------------------------------------------------------------------
# model
# --------------------------------------------------------------------------
class MethodNet(nn.Module):
    """Dilated 1-D conv over transitions, circular padding (leads repeat)."""

    def __init__(self, width=48):
        super().__init__()
        self.c1 = nn.Conv1d(N_PAIRS, width, 3, padding=1)
        self.c2 = nn.Conv1d(width, width, 3, padding=2, dilation=2)
        self.c3 = nn.Conv1d(width, width, 3, padding=4, dilation=4)
        self.out = nn.Linear(2 * width, N_METHODS)

    def forward(self, x):
        h = F.gelu(self.c1(x))
        h = F.gelu(self.c2(h)) + h
        h = F.gelu(self.c3(h)) + h
        pooled = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.out(pooled)


# --------------------------------------------------------------------------
# training / evaluation
# --------------------------------------------------------------------------
def batches(X, y, bs, shuffle, gen=None):
    idx = torch.randperm(len(y), generator=gen) if shuffle else torch.arange(len(y))
    for s in range(0, len(y), bs):
        j = idx[s:s + bs]
        yield X[j], y[j]


@torch.no_grad()
def evaluate(model, X, y, bs=256):
    """Mean top-1 accuracy and loss over the validation batches."""
    model.eval()
    accs, losses = [], []
    for xb, yb in batches(X, y, bs, shuffle=False):
        logits = model(xb)
        losses.append(F.cross_entropy(logits, yb).item())
        _, top = logits.topk(1, dim=1)
        accs.append((top == yb).float().mean().item())
    return float(np.mean(losses)), float(np.mean(accs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--n-train", type=int, default=3000)
    ap.add_argument("--n-val", type=int, default=800)
    ap.add_argument("--fault-rate", type=float, default=0.15)
    ap.add_argument("--library-seed", type=int, default=1732)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    library = build_library(args.library_seed)
    Xtr, ytr = make_dataset(library, args.n_train, rng, args.fault_rate)
    Xva, yva = make_dataset(library, args.n_val, rng, args.fault_rate)

    model = MethodNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    gen = torch.Generator().manual_seed(args.seed)

    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        tot, n, correct = 0.0, 0, 0
        for xb, yb in batches(Xtr, ytr, args.batch_size, shuffle=True, gen=gen):
            logits = model(xb)
            loss = F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
            n += len(yb)
        sched.step()
        vloss, vacc = evaluate(model, Xva, yva)
        print(f"epoch {epoch + 1:02d}  train_loss {tot / n:.4f}  val_loss {vloss:.4f}  val_acc {vacc:.4f}")

    vloss, vacc = evaluate(model, Xva, yva)
    print(f"trained in {time.time() - t0:.1f}s (chance = {1 / N_METHODS:.3f})")
    print(f"val_acc={vacc:.4f}")


if __name__ == "__main__":
    main()
