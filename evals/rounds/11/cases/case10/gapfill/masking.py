import torch


def hide_readings(x, p_missing, generator=None):
    """Knock out readings at random, as a flaky logger would.

    Returns (x_in, observed): observed is 1.0 where the reading is kept and 0.0
    where it was removed; removed readings are zero-filled in x_in.
    """
    observed = (torch.rand(x.shape, generator=generator) >= p_missing).float()
    # sometimes a station is down for a whole stretch
    B, L, S = x.shape
    outage = torch.rand(B, 1, S, generator=generator) < 0.08
    observed = observed.masked_fill(outage, 0.0)
    return x * observed, observed


def masked_mse(pred, target, mask):
    """Mean squared error over the entries where mask == 1."""
    se = (pred - target) ** 2 * mask
    return se.sum() / mask.sum().clamp_min(1.0)
