#!/usr/bin/env python
"""Next-colour model for cross-stitch charts with truncated BPTT."""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_COLOURS = 12
PAD = N_COLOURS          # extra index for "no stitch yet" at chart end padding
W, H = 20, 16
CHUNK = 40


_book = np.random.default_rng(1887)
PATTERN_BOOK = [_book.integers(1, N_COLOURS, int(_book.integers(3, 6))) for _ in range(8)]   # motifs, floss 0 = border


def chart(rng):
    """Border + two alternating row motifs from the pattern book."""
    i, j = rng.choice(len(PATTERN_BOOK), 2, replace=False)
    g = np.empty((H, W), dtype=np.int64)
    for r in range(H):
        m = PATTERN_BOOK[i] if r % 2 == 0 else PATTERN_BOOK[j]
        g[r] = np.roll(np.resize(m, W), int(rng.integers(len(m))))
    g[0], g[-1], g[:, 0], g[:, -1] = 0, 0, 0, 0
    g[1::2] = g[1::2, ::-1]            # boustrophedon reading order
    seq = g.reshape(-1)
    noise = rng.random(seq.shape) < 0.03
    seq[noise] = rng.integers(0, N_COLOURS, noise.sum())
    return seq


def make_batch(rng, n):
    """Charts of unequal length (some unfinished): padded, with an ignore mask."""
    seqs = [chart(rng)[: int(rng.integers(W * H // 2, W * H + 1))] for _ in range(n)]
    T = W * H
    x = np.full((n, T), PAD)
    ignore = np.ones((n, T), bool)             # True = not a real stitch
    for i, s in enumerate(seqs):
        x[i, : len(s)] = s
        ignore[i, : len(s)] = False
    return torch.tensor(x), torch.tensor(ignore)


def shift(x, ignore):
    """Inputs are stitches 0..T-2, targets stitches 1..T-1."""
    return x[:, :-1], x[:, 1:], ignore[:, 1:]


class StitchLSTM(nn.Module):
    def __init__(self, d=48, hidden=96):
        super().__init__()
        self.emb = nn.Embedding(N_COLOURS + 1, d)
        self.rnn = nn.LSTM(d, hidden, batch_first=True)
        self.out = nn.Linear(hidden, N_COLOURS)

    def forward(self, x, state=None):
        h, state = self.rnn(self.emb(x), state)
        return self.out(h), state


def run_chart_batch(model, x, ignore, opt=None):
    inp, tgt, ign = shift(x, ignore)
    state = None
    tot_loss, hit, count = 0.0, 0, 0
    for s in range(0, inp.shape[1], CHUNK):
        xi, ti, mi = inp[:, s:s + CHUNK], tgt[:, s:s + CHUNK], ign[:, s:s + CHUNK]
        if state is not None:
            state = tuple(h.detach() for h in state)      # truncate the graph at the chunk boundary
        logits, state = model(xi, state)
        keep = ~mi
        if keep.sum() == 0:
            continue
        loss = F.cross_entropy(logits[keep], ti[keep])
        if opt is not None:
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        tot_loss += loss.item() * keep.sum().item()
        hit += (logits[keep].argmax(-1) == ti[keep]).sum().item()
        count += keep.sum().item()
    return tot_loss / count, hit / count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--seed", type=int, default=9)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    torch.manual_seed(a.seed)
    val = [make_batch(np.random.default_rng(a.seed + 500 + i), 64) for i in range(3)]

    model = StitchLSTM()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    t0 = time.time()
    for ep in range(a.epochs):
        model.train()
        losses = [run_chart_batch(model, *make_batch(rng, a.bs), opt=opt)[0] for _ in range(a.batches)]
        model.eval()
        with torch.no_grad():
            accs = [run_chart_batch(model, *vb)[1] for vb in val]
        print(f"epoch {ep + 1} train_loss {np.mean(losses):.4f} val_acc {np.mean(accs):.4f} ({time.time() - t0:.1f}s)")
    print(f"val_acc={np.mean(accs):.4f}")


if __name__ == "__main__":
    main()
