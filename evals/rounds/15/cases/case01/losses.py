import torch.nn.functional as F


def masked_bce(logits, target, mask):
    """BCE averaged over the pixels where `mask` is 1."""
    mask = mask.float()
    per_px = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    return (per_px * mask).sum() / mask.sum().clamp(min=1.0)
