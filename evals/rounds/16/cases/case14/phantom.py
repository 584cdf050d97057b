import numpy as np

N = 12


def tube(rng, label):
    z, y, x = np.mgrid[0:N, 0:N, 0:N].astype(np.float32) - (N - 1) / 2
    d = rng.normal(size=3)
    d /= np.linalg.norm(d)
    pts = np.stack([z, y, x], -1)
    along = pts @ d
    radial = np.linalg.norm(pts - along[..., None] * d, axis=-1)
    r_lumen, wall = 2.0, 1.0
    if label == 1:           # dilated lumen, thick wall
        r_lumen, wall = rng.uniform(3.0, 3.8), rng.uniform(1.4, 2.0)
    elif label == 2:         # focal narrowing along the tube
        r_lumen = 2.0 - rng.uniform(0.9, 1.3) * np.exp(-0.5 * (along / 1.5) ** 2)
    else:
        r_lumen = rng.uniform(1.8, 2.4)
    hu = np.full((N, N, N), -850.0, dtype=np.float32)            # lung parenchyma
    hu += rng.normal(0, 40, hu.shape)
    hu = np.where(radial < r_lumen + wall, 40.0, hu)              # airway wall
    hu = np.where(radial < r_lumen, -1000.0, hu)                  # lumen air
    hu += rng.normal(0, 30, hu.shape)
    return np.clip((hu + 500) / 500, -1, 1).astype(np.float32)


def make_volumes(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    x = np.stack([tube(rng, int(c)) for c in y])[:, None]
    return x, y.astype(np.int64)
