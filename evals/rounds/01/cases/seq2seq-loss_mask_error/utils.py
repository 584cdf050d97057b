import torch


def lengths_to_padding_mask(lengths, max_len=None):
    """Boolean (B, T) mask, True where the position is padding (beyond the length)."""
    max_len = max_len or int(lengths.max())
    steps = torch.arange(max_len, device=lengths.device)
    return steps.unsqueeze(0) >= lengths.unsqueeze(1)


def masked_mean(values, mask):
    """Mean of `values` over the positions selected by `mask` (same shape)."""
    mask = mask.to(values.dtype)
    return (values * mask).sum() / mask.sum().clamp(min=1.0)
