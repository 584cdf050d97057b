import torch


def masked_mse(pred, target, ignore):
    """Mean squared error over the kept elements.

    `ignore` is a bool tensor, True where the element must be left out
    (same convention as key_padding_mask).
    """
    keep = (~ignore).float()
    return ((pred - target) ** 2 * keep).sum() / keep.sum().clamp(min=1.0)


def masked_mae(pred, target, ignore):
    keep = (~ignore).float()
    return ((pred - target).abs() * keep).sum() / keep.sum().clamp(min=1.0)
