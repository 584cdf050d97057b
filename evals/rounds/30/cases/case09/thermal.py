import numpy as np
import torch


def render_tiles(n, rng, size=24):
    imgs = 0.3 * rng.standard_normal((n, 1, size, size)).astype(np.float32)
    masks = np.zeros((n, 1, size, size), dtype=np.float32)
    cracked = rng.random(n) < 0.5
    yy, xx = np.mgrid[0:size, 0:size]
    for i in range(n):
        imgs[i, 0] += 0.5 * np.sin(xx / rng.uniform(3, 6))  # grout pattern
        if cracked[i]:
            a, b = rng.uniform(-1.5, 1.5), rng.uniform(4, 20)
            line = np.abs(yy - (a * (xx - 12) + b)) < 1.0
            masks[i, 0][line] = 1.0
            imgs[i, 0][line] += 1.2  # heat escaping through the crack
    return torch.from_numpy(imgs), torch.from_numpy(masks), torch.from_numpy(cracked.astype(np.float32))
