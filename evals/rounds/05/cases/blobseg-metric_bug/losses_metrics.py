import torch
import torch.nn.functional as F


def soft_dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * target).sum(dim=(1, 2, 3))
    denom = p.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (denom + eps)).mean()


def bce_dice(logits, target, w_dice=0.5):
    return F.binary_cross_entropy_with_logits(logits, target) + w_dice * soft_dice_loss(logits, target)


def dice_coefficient(logits, target, threshold=0.5, eps=1e-6):
    """Hard Dice per image, averaged over the batch."""
    pred = (torch.sigmoid(logits) > threshold).float()
    inter = (pred * target).sum(dim=(1, 2, 3))
    denom = pred.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return ((2 * inter + eps) / (denom + eps)).mean().item()
