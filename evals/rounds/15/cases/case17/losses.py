import torch


def huber(pred, target, delta=5.0):
    """Huber loss in cm: quadratic near zero, linear for the big misses
    (spring storms give a few very large residuals)."""
    err = (pred - target).abs()
    quad = torch.clamp(err, max=delta)
    lin = err - quad
    return (0.5 * quad ** 2 + delta * lin).mean()
