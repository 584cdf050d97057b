"""Count-based word vectors: PPMI of within-document co-occurrence, truncated SVD."""
import numpy as np

from corpus import PAD


def ppmi_svd(docs, vocab, dim=48):
    counts = np.zeros((vocab, vocab))
    for d in docs:
        w = d[d != PAD]
        np.add.at(counts, (w[:, None], w[None, :]), 1.0)
    np.fill_diagonal(counts, 0.0)
    total = counts.sum()
    row = counts.sum(1, keepdims=True)
    col = counts.sum(0, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        pmi = np.log(counts * total / (row * col))
    ppmi = np.nan_to_num(np.maximum(pmi, 0.0), posinf=0.0)
    u, s, _ = np.linalg.svd(ppmi, full_matrices=False)
    vecs = u[:, :dim] * np.sqrt(s[:dim])
    vecs[PAD] = 0.0
    return vecs.astype(np.float32)
