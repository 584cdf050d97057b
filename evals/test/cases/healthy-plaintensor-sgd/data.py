import torch


def checkerboard(n, generator, noise=0.35):
    """Four classes on a 4x4 checkerboard of cluster centres."""
    cell = torch.randint(0, 4, (n, 2), generator=generator)
    label = (cell[:, 0] % 2) * 2 + (cell[:, 1] % 2)
    centre = cell.float() * 2.0 - 3.0
    x = centre + noise * torch.randn(n, 2, generator=generator)
    return x, label
