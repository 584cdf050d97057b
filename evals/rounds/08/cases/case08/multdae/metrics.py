import numpy as np


def recall_at_k(scores, target, k):
    top = np.argpartition(-scores, k, axis=1)[:, :k]
    hits = np.take_along_axis(target, top, axis=1).sum(1)
    return float(np.mean(hits / np.minimum(k, target.sum(1))))


def ndcg_at_k(scores, target, k):
    top = np.argsort(-scores, axis=1)[:, :k]
    disc = 1.0 / np.log2(np.arange(2, k + 2))
    dcg = (np.take_along_axis(target, top, axis=1) * disc).sum(1)
    idcg = np.array([disc[: int(min(n, k))].sum() for n in target.sum(1)])
    return float(np.mean(dcg / idcg))
