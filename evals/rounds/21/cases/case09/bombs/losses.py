import torch


def log_mass_loss(pred, log_mass, huber_delta=1.0):
    """Huber on log10 mass; robust to a few mis-measured blocks."""
    err = (pred - log_mass).abs()
    quad = torch.clamp(err, max=huber_delta)
    return (0.5 * quad ** 2 + huber_delta * (err - quad)).mean()
