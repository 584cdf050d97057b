import numpy as np


def f1_scores(probs, labels, threshold=0.5):
    pred = probs >= threshold
    tp = (pred & (labels == 1)).sum(0)
    fp = (pred & (labels == 0)).sum(0)
    fn = (~pred & (labels == 1)).sum(0)
    micro = 2 * tp.sum() / max(1, 2 * tp.sum() + fp.sum() + fn.sum())
    per_tag = 2 * tp / np.maximum(1, 2 * tp + fp + fn)
    return float(micro), float(per_tag.mean())


def mean_average_precision(probs, labels):
    aps = []
    for t in range(labels.shape[1]):
        order = np.argsort(-probs[:, t])
        rel = labels[order, t]
        if rel.sum() == 0:
            continue
        hits = np.cumsum(rel)
        prec = hits / np.arange(1, len(rel) + 1)
        aps.append(float((prec * rel).sum() / rel.sum()))
    return float(np.mean(aps))
