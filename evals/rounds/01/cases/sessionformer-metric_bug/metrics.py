import torch


def binary_accuracy(scores, labels, threshold=0.0):
    """Fraction of correct decisions; `scores` above `threshold` count as positive."""
    return ((scores > threshold).float() == labels).float().mean().item()


def roc_auc(scores, labels):
    order = torch.argsort(scores)
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    pos = labels == 1
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()
