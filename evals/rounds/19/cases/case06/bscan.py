import numpy as np

H, W = 16, 32


def patch(rng, kind):
    img = rng.normal(0, 0.3, (H, W))
    img += np.linspace(0.5, 0, H)[:, None] * rng.uniform(0.5, 1.0)      # near-surface ringing
    if kind == 1:  # crack: tilted line reflector + tip echo
        x0, z0 = rng.integers(6, W - 10), rng.integers(3, 8)
        slope = rng.uniform(0.5, 1.5) * rng.choice([-1, 1])
        for dz in range(rng.integers(5, 8)):
            x = int(round(x0 + slope * dz))
            if 0 <= z0 + dz < H and 0 <= x < W:
                img[z0 + dz, max(x - 1, 0):x + 1] += rng.uniform(1.5, 2.2)
        img[min(z0 + 7, H - 1), x0] += 1.5
    elif kind == 2:  # porosity: a few round blobs
        for _ in range(rng.integers(1, 4)):
            z, x = rng.integers(2, H - 2), rng.integers(2, W - 2)
            img[z - 1:z + 2, x - 1:x + 2] += rng.uniform(1.0, 1.8)
    return img.astype(np.float32)


def make(n, seed):
    rng = np.random.default_rng(seed)
    kinds = rng.choice(3, size=n, p=[0.65, 0.1, 0.25])
    X = np.stack([patch(rng, k) for k in kinds])[:, None]
    return X, (kinds == 1).astype(np.float32)
