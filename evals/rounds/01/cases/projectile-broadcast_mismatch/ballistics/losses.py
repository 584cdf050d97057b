import torch


def huber(pred, target, delta=1.0):
    """Smooth L1 written out so the delta is explicit (targets are standardised)."""
    err = (pred - target).abs()
    quad = torch.clamp(err, max=delta)
    return (0.5 * quad ** 2 + delta * (err - quad)).mean()
