import torch


def corrupt(clean, sigma=0.3, drop_p=0.05, generator=None):
    """Simulate a cheap sensor: additive white noise and stuck-at-zero samples.

    clean: (B, 1, L) tensor. Returns a tensor of the same shape.
    """
    noisy = clean.squeeze(1)  # (B, L) is easier to index below
    noisy.add_(sigma * torch.randn(noisy.shape, generator=generator))
    dropped = torch.rand(noisy.shape, generator=generator) < drop_p
    noisy[dropped] = 0.0
    return noisy.unsqueeze(1)
