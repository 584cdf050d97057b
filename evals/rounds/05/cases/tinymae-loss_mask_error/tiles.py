import numpy as np
import torch


def make_tiles(n, size, seed):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    out = np.empty((n, size, size), np.float32)
    for k in range(n):
        kind = rng.integers(3)
        if kind == 0:
            th, f = rng.uniform(0, np.pi), rng.uniform(0.15, 0.5)
            img = np.sin(f * (np.cos(th) * xx + np.sin(th) * yy) * 2 * np.pi / 2 + rng.uniform(0, 6.28))
        elif kind == 1:
            c = rng.integers(2, 5)
            img = (((xx // c) + (yy // c)) % 2) * 2 - 1.0
        else:
            img = np.zeros_like(xx)
            for _ in range(rng.integers(1, 4)):
                cx, cy, s = rng.uniform(0, size, 2).tolist() + [rng.uniform(2, 5)]
                img += rng.choice([-1, 1]) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s * s)) * 2
        out[k] = img + rng.normal(0, 0.05, img.shape)
    out = (out - out.mean()) / out.std()
    return torch.from_numpy(out)


def patchify(imgs, p):
    """(B, H, W) -> (B, N, p*p), row-major patch order."""
    B, H, W = imgs.shape
    x = imgs.reshape(B, H // p, p, W // p, p).permute(0, 1, 3, 2, 4)
    return x.reshape(B, (H // p) * (W // p), p * p)
