import torch


def pairwise_margin_loss(scores, rels, valid, margin=1.0):
    """Hinge loss over ordered pairs (i, j) of the same query with rel_i > rel_j.

    scores, rels: [B, D]; valid: [B, D] bool, True for real candidates.
    Padded slots carry relevance -1, so rel_i > rel_j already implies that i is a
    real candidate; only j has to be checked.
    """
    s_diff = scores.unsqueeze(2) - scores.unsqueeze(1)          # [B, D, D]: s_i - s_j
    better = rels.unsqueeze(2) > rels.unsqueeze(1)
    pairs = better & valid.unsqueeze(1)
    hinge = torch.clamp(margin - s_diff, min=0.0)
    return (hinge * pairs).sum() / pairs.sum().clamp(min=1)
