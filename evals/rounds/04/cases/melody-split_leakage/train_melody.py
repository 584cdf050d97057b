#!/usr/bin/env python
"""Next-note LSTM with scheduled sampling."""
import argparse
import time
import tomllib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

MOTIFS = [
    [2, 2, 1, -5], [-1, -2, 3, 0], [4, 3, -7, 0], [2, -4, 2, 0],
    [7, -2, -2, -3], [1, 1, 1, -3], [-3, 5, -2, 0], [5, -1, -4, 0],
]


def generate(n, cfg, rng):
    P, T = cfg["pitches"], cfg["length"]
    out = np.zeros((n, T), dtype=np.int64)
    for i in range(n):
        motif = MOTIFS[rng.integers(len(MOTIFS))]
        note = int(rng.integers(P))
        for t in range(T):
            out[i, t] = note
            note = (note + motif[t % len(motif)]) % P
            if rng.random() < cfg["noise"]:
                note = int(rng.integers(P))
    return out


class NoteLSTM(nn.Module):
    def __init__(self, pitches, embed, hidden):
        super().__init__()
        self.embed = nn.Embedding(pitches, embed)
        self.cell = nn.LSTMCell(embed, hidden)
        self.out = nn.Linear(hidden, pitches)
        self.hidden = hidden

    def init_state(self, batch):
        z = torch.zeros(batch, self.hidden)
        return z, z.clone()

    def step(self, note, state):
        h, c = self.cell(self.embed(note), state)
        return self.out(h), (h, c)


def unroll(model, melody, tf_ratio, gen=None):
    """Feed the melody one note at a time; return logits for notes 1..T-1.

    With probability 1 - tf_ratio (per step, per batch) the model's own previous
    guess is fed instead of the ground-truth note (scheduled sampling).
    """
    B, T = melody.shape
    state = model.init_state(B)
    logits = []
    prev_guess = None
    for t in range(T - 1):
        use_gold = prev_guess is None or torch.rand((), generator=gen).item() < tf_ratio
        note_in = melody[:, t + 1] if use_gold else prev_guess
        step_logits, state = model.step(note_in, state)
        logits.append(step_logits)
        prev_guess = step_logits.argmax(-1).detach()
    return torch.stack(logits, dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="melody.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    tc = cfg["train"]
    if args.seed is not None:
        tc["seed"] = args.seed
    torch.manual_seed(tc["seed"])
    gen = torch.Generator().manual_seed(tc["seed"])

    rng = np.random.default_rng(cfg["data"]["seed"])
    train = torch.from_numpy(generate(cfg["data"]["n_train"], cfg["data"], rng))
    val = torch.from_numpy(generate(cfg["data"]["n_val"], cfg["data"], rng))

    model = NoteLSTM(cfg["data"]["pitches"], cfg["model"]["embed"], cfg["model"]["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=tc["lr"])

    n_batches = (len(train) + tc["batch_size"] - 1) // tc["batch_size"]
    total = tc["epochs"] * n_batches
    it = 0
    t0 = time.time()
    for epoch in range(tc["epochs"]):
        model.train()
        perm = torch.randperm(len(train))
        losses = []
        for b in range(n_batches):
            mel = train[perm[b * tc["batch_size"]:(b + 1) * tc["batch_size"]]]
            tf = tc["tf_start"] + (tc["tf_end"] - tc["tf_start"]) * it / max(total - 1, 1)
            logits = unroll(model, mel, tf, gen)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), mel[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), tc["clip"])
            opt.step()
            losses.append(loss.item())
            it += 1
        model.eval()
        with torch.no_grad():
            logits = unroll(model, val, 1.0)
            acc = (logits.argmax(-1) == val[:, 1:]).float().mean().item()
        print(f"epoch {epoch + 1} loss {np.mean(losses):.3f} tf {tf:.2f} val_note_acc {acc:.3f} ({time.time() - t0:.1f}s)")
    print(f"METRIC val_note_acc={acc:.4f}")


if __name__ == "__main__":
    main()
