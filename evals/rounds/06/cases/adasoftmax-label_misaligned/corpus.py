"""Synthetic corpus: a sparse Markov chain whose successors are drawn Zipf-style."""
import numpy as np
import torch


def zipf_probs(n, a=1.1):
    ranks = np.arange(1, n + 1, dtype=np.float64)
    p = ranks ** (-a)
    return p / p.sum()


def make_chain(vocab_size, n_succ, rng):
    base = zipf_probs(vocab_size)
    succ = np.stack([rng.choice(vocab_size, size=n_succ, replace=False, p=base)
                     for _ in range(vocab_size)])
    w = rng.dirichlet(np.full(n_succ, 5.0), size=vocab_size)
    return succ, w


def sample_stream(succ, w, length, rng):
    out = np.empty(length, dtype=np.int64)
    cur = 0
    for i in range(length):
        j = rng.choice(len(w[cur]), p=w[cur])
        cur = succ[cur, j]
        out[i] = cur
    return out


def build(vocab_size=1000, n_succ=3, train_tokens=60000, val_tokens=10000, seed=0):
    rng = np.random.default_rng(seed)
    succ, w = make_chain(vocab_size, n_succ, rng)
    train = sample_stream(succ, w, train_tokens, rng)
    val = sample_stream(succ, w, val_tokens, rng)
    return torch.from_numpy(train), torch.from_numpy(val)


class LMWindows(torch.utils.data.Dataset):
    """Fixed windows of `seq_len + 1` tokens; yields (input, next-token target)."""

    def __init__(self, stream, seq_len):
        n = (len(stream) - 1) // seq_len
        self.stream = stream
        self.seq_len = seq_len
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        s = i * self.seq_len
        chunk = self.stream[s:s + self.seq_len + 1]
        return chunk[:-1], chunk[1:]
