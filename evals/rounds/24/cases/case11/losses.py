import torch
import torch.nn.functional as F

UNREADABLE = -1.0


def focal_loss(logits, targets, alpha=0.75, gamma=2.0):
    """Binary focal loss (Lin et al.), averaged over readable patches.

    Patches the inspector marked unreadable (target -1) do not contribute.
    """
    valid = targets > 0
    logits, targets = logits[valid], targets[valid]
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * (1 - p_t) ** gamma * ce).sum() / valid.sum().clamp(min=1)
