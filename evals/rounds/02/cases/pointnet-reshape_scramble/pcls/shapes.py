import numpy as np

CLASSES = ("sphere", "box", "cylinder", "cone", "torus", "disk")


def _sphere(rng, n):
    v = rng.normal(size=(n, 3))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _box(rng, n):
    p = rng.uniform(-1, 1, size=(n, 3))
    face = rng.integers(0, 3, n)
    p[np.arange(n), face] = rng.choice([-1.0, 1.0], n)
    return p


def _cylinder(rng, n):
    th = rng.uniform(0, 2 * np.pi, n)
    return np.stack([np.cos(th), np.sin(th), rng.uniform(-1, 1, n)], 1)


def _cone(rng, n):
    th = rng.uniform(0, 2 * np.pi, n)
    h = np.sqrt(rng.uniform(0, 1, n))  # area-uniform on the lateral surface
    return np.stack([h * np.cos(th), h * np.sin(th), 1 - 2 * h], 1)


def _torus(rng, n, R=0.7, r=0.3):
    u, v = rng.uniform(0, 2 * np.pi, (2, n))
    return np.stack([(R + r * np.cos(v)) * np.cos(u), (R + r * np.cos(v)) * np.sin(u), r * np.sin(v)], 1)


def _disk(rng, n):
    rad = np.sqrt(rng.uniform(0, 1, n))
    th = rng.uniform(0, 2 * np.pi, n)
    return np.stack([rad * np.cos(th), rad * np.sin(th), 0.02 * rng.normal(size=n)], 1)


_GEN = (_sphere, _box, _cylinder, _cone, _torus, _disk)


def _random_rotation(rng):
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q *= np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] *= -1
    return q


def make_dataset(n_clouds, n_points, seed):
    """Returns points (n_clouds, n_points, 3) float32 and labels (n_clouds,) int64."""
    rng = np.random.default_rng(seed)
    pts = np.empty((n_clouds, n_points, 3), dtype=np.float32)
    labels = rng.integers(0, len(CLASSES), n_clouds)
    for i, c in enumerate(labels):
        p = _GEN[c](rng, n_points)
        p = p * rng.uniform(0.7, 1.3, size=3)          # anisotropic scale
        p = p @ _random_rotation(rng).T
        p += 0.02 * rng.normal(size=p.shape)
        p -= p.mean(0)
        p /= np.abs(p).max()
        pts[i] = p
    return pts, labels.astype(np.int64)
