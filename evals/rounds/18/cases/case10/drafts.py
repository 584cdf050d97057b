import numpy as np

PAD = 0  # colour ids start at 1


def random_draft(rng, colours, min_len, max_len):
    motif = list(rng.integers(1, colours + 1, size=rng.integers(3, 8)))
    if rng.random() < 0.4:  # point repeat: motif, then motif mirrored
        motif = motif + motif[-2:0:-1]
    n = int(rng.integers(min_len, max_len + 1))
    picks = [motif[i % len(motif)] for i in range(n)]
    for i in range(n):  # weaver's slips
        if rng.random() < 0.03:
            picks[i] = int(rng.integers(1, colours + 1))
    return picks


def make_corpus(n, colours, min_len, max_len, seed):
    rng = np.random.default_rng(seed)
    drafts = [random_draft(rng, colours, min_len, max_len) for _ in range(n)]
    lengths = np.array([len(d) for d in drafts])
    arr = np.full((n, max_len), PAD, dtype=np.int64)
    for i, d in enumerate(drafts):
        arr[i, :len(d)] = d
    return arr, lengths


def padding_mask(lengths, width):
    """Boolean [N, width] mask, True where a position is padding (key_padding_mask style)."""
    pos = np.arange(width)[None, :]
    return pos >= np.asarray(lengths)[:, None]
