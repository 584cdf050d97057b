import torch


def roc_auc(scores, labels):
    """Rank-based AUC (Mann-Whitney U); ties get average ranks."""
    scores = scores.double()
    order = scores.argsort()
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=torch.double)
    uniq, inv = torch.unique(scores, return_inverse=True)
    if len(uniq) < len(scores):
        sums = torch.zeros(len(uniq), dtype=torch.double).index_add_(0, inv, ranks)
        counts = torch.bincount(inv, minlength=len(uniq)).double()
        ranks = (sums / counts)[inv]
    pos = labels == 1
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    return ((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)).item()
