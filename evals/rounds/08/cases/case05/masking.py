import torch


def sample_mask(shape, missing_rate, generator=None):
    """Boolean mask, True where the value is kept (observed)."""
    return torch.rand(shape, generator=generator) >= missing_rate


def corrupt(x, observed):
    """Zero out hidden cells and append the indicator channel."""
    return torch.cat([x * observed, observed.float()], dim=-1)


def masked_mse(pred, target, mask):
    """Mean squared error over the entries selected by `mask`."""
    mask = mask.float()
    return ((pred - target) ** 2 * mask).sum() / mask.sum().clamp_min(1.0)
