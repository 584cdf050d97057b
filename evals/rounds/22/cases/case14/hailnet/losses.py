import torch


def log_space_mse(pred_log, target_log, weight=None):
    """Squared error in log-diameter space (relative error on the mm scale)."""
    err = (pred_log - target_log) ** 2
    if weight is not None:
        err = err * weight
    return err.mean()


def mae_mm(pred_log, target_log):
    return (torch.exp(pred_log) - torch.exp(target_log)).abs().mean()
