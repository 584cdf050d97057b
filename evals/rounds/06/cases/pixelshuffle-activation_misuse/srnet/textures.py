import math

import torch


def procedural_textures(n, size, seed):
    """Grayscale textures in [0, 1]: a few oriented sinusoids plus gaussian blobs."""
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.linspace(0, 1, size), torch.linspace(0, 1, size), indexing="ij")
    out = torch.zeros(n, 1, size, size)
    for i in range(n):
        img = torch.zeros(size, size)
        for _ in range(3):
            ang = torch.rand(1, generator=g).item() * math.pi
            freq = 2 + torch.rand(1, generator=g).item() * 7
            ph = torch.rand(1, generator=g).item() * 2 * math.pi
            img += torch.sin(2 * math.pi * freq * (xx * math.cos(ang) + yy * math.sin(ang)) + ph)
        for _ in range(2):
            cx, cy = torch.rand(2, generator=g).tolist()
            r = 0.05 + 0.15 * torch.rand(1, generator=g).item()
            img += 2.0 * torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        img = (img - img.min()) / (img.max() - img.min() + 1e-8)
        out[i, 0] = img
    return out


def to_range(x, pixel_range):
    if pixel_range == "symmetric":
        return x * 2.0 - 1.0
    if pixel_range == "unit":
        return x
    raise ValueError(pixel_range)
