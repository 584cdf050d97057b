import numpy as np
import torch

PAD, BOS = 0, 1
N_TOK = 18  # 0 pad, 1 bos, 2..17 fold tokens


def fold_sequence(rng):
    """A kite pattern: a start fold then a deterministic rule with occasional noise."""
    L = rng.integers(8, 20)
    step = rng.choice([1, 3, 5])
    cur = rng.integers(0, 16)
    seq = [BOS]
    for _ in range(L):
        seq.append(2 + cur)
        cur = (cur + step) % 16 if rng.random() > 0.05 else rng.integers(0, 16)
    return seq


def build_batch(seqs):
    T = max(len(s) for s in seqs)
    arr = np.full((len(seqs), T), PAD, dtype=np.int64)
    for i, s in enumerate(seqs):
        arr[i, :len(s)] = s
    arr = torch.from_numpy(arr)
    inputs, targets = arr[:, :-1], arr[:, 1:]
    keep = targets.eq(PAD)
    return inputs, targets, keep
