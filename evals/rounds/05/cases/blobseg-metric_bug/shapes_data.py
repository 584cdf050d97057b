import numpy as np
import torch


def make_images(n, size=32, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    imgs = np.empty((n, 1, size, size), np.float32)
    masks = np.zeros((n, 1, size, size), np.float32)
    for k in range(n):
        bg = 0.3 * np.sin(xx * rng.uniform(0.2, 0.8) + rng.uniform(0, 6)) * np.cos(yy * rng.uniform(0.2, 0.8))
        m = np.zeros((size, size), bool)
        for _ in range(rng.integers(1, 4)):
            cx, cy = rng.uniform(4, size - 4, 2)
            a, b = rng.uniform(2.5, 7, 2)
            if rng.random() < 0.5:
                m |= ((xx - cx) / a) ** 2 + ((yy - cy) / b) ** 2 < 1
            else:
                m |= (np.abs(xx - cx) < a) & (np.abs(yy - cy) < b)
        contrast = rng.uniform(0.5, 1.0)
        imgs[k, 0] = bg + contrast * m + rng.normal(0, 0.25, (size, size))
        masks[k, 0] = m
    return torch.from_numpy(imgs), torch.from_numpy(masks)
