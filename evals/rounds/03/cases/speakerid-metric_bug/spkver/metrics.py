import numpy as np


def all_pairs(speaker_ids):
    """Every unordered pair of test utterances; label 1 = same speaker (target trial)."""
    i, j = np.triu_indices(len(speaker_ids), k=1)
    return i, j, (speaker_ids[i] == speaker_ids[j]).astype(np.int64)


def equal_error_rate(scores, labels):
    """EER for similarity scores (higher = more likely the same speaker)."""
    target = np.sort(scores[labels == 1])
    nontarget = np.sort(scores[labels == 1])
    thresholds = np.sort(scores)
    frr = np.searchsorted(target, thresholds, side="left") / len(target)        # targets below threshold
    far = 1.0 - np.searchsorted(nontarget, thresholds, side="left") / len(nontarget)  # impostors accepted
    k = np.argmin(np.abs(far - frr))
    return float((far[k] + frr[k]) / 2)
