import torch


def wrap_deg(d):
    """Signed angular difference folded into [-180, 180)."""
    return torch.fmod(d + 180.0, 360.0) - 180.0


def heading_mae(pred_deg, true_deg):
    return wrap_deg(pred_deg - true_deg).abs().mean().item()
