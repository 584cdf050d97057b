import torch
import torch.nn.functional as F


def weighted_bce(logits, targets, pos_weight):
    """Class-weighted binary cross-entropy on raw scores."""
    pw = torch.as_tensor(pos_weight, dtype=logits.dtype)
    return F.binary_cross_entropy_with_logits(logits, targets, pos_weight=pw)
