import numpy as np
import torch

PAD = 0


def make_votes(n, n_cand, min_len, max_len, rng):
    seqs, labels = [], []
    for _ in range(n):
        L = rng.integers(min_len, max_len + 1)
        pref = rng.dirichlet(np.full(n_cand, 1.5))
        v = rng.choice(n_cand, size=L, p=pref)
        counts = np.bincount(v, minlength=n_cand)
        labels.append(int(np.argmax(counts)))       # argmax takes the first max: lower id wins ties
        seqs.append(v + 1)                          # 0 is reserved for padding
    return seqs, np.array(labels)


def collate(batch):
    seqs, labels = zip(*batch)
    T = max(len(s) for s in seqs)
    tokens = torch.full((len(seqs), T), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        tokens[i, :len(s)] = torch.as_tensor(s)
    return tokens, torch.as_tensor(labels)
