"""Synthetic session event streams."""
import random

import torch

EVENTS = ["<pad>", "login_ok", "login_fail", "view", "search", "add_payee", "transfer", "logout",
          "settings", "download", "mfa_ok", "mfa_fail"]
PAD = 0
IDX = {e: i for i, e in enumerate(EVENTS)}
RISKY = {IDX["login_fail"], IDX["add_payee"], IDX["mfa_fail"], IDX["download"]}
CALM = {IDX["view"], IDX["search"], IDX["mfa_ok"], IDX["logout"]}


def make_sessions(n, min_len, max_len, seed):
    rng = random.Random(seed)
    seqs, labels = [], []
    for _ in range(n):
        L = rng.randint(min_len, max_len)
        p_risky = rng.uniform(0.0, 0.5)
        seq = [IDX["login_ok"]]
        for _ in range(L - 1):
            if rng.random() < p_risky:
                seq.append(rng.choice(sorted(RISKY)))
            else:
                seq.append(rng.choice(range(1, len(EVENTS))))
        risky = sum(t in RISKY for t in seq)
        calm = sum(t in CALM for t in seq)
        margin = risky - calm - 0.3 * len(seq)
        # a transfer in the session lowers the bar
        labels.append(int(margin > 0 or (IDX["transfer"] in seq and margin > -2)))
        seqs.append(seq)
    return seqs, labels


def pad_batch(batch):
    seqs, labels = zip(*batch)
    T = max(map(len, seqs))
    x = torch.full((len(seqs), T), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        x[i, :len(s)] = torch.tensor(s)
    return x, torch.tensor(labels, dtype=torch.float32)
