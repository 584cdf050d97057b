import torch


def weighted_mse(pred, target, weight=None):
    """MSE with optional per-sample weights (used to upweight the bass strings)."""
    err = (pred - target) ** 2
    if weight is not None:
        err = weight * err
    return err.mean()


def r2_score(pred, target):
    ss_res = ((pred - target) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1.0 - (ss_res / ss_tot).item()
