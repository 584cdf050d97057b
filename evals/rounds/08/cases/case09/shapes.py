import numpy as np

CLASSES = ["ellipse", "triangle", "square", "pentagon", "star", "cross"]


def _polygon(verts, n, rng):
    verts = np.asarray(verts, dtype=float)
    seg = np.roll(verts, -1, axis=0) - verts
    lens = np.linalg.norm(seg, axis=1)
    k = rng.choice(len(verts), size=n, p=lens / lens.sum())
    t = rng.random(n)[:, None]
    return verts[k] + t * seg[k]


def _regular(m, r=1.0, inner=None):
    ang = np.pi / 2 + 2 * np.pi * np.arange(m) / m
    pts = np.stack([r * np.cos(ang), r * np.sin(ang)], 1)
    if inner is None:
        return pts
    ang2 = ang + np.pi / m
    pts2 = np.stack([inner * np.cos(ang2), inner * np.sin(ang2)], 1)
    return np.stack([pts, pts2], 1).reshape(-1, 2)


CROSS = np.array([[1, 3], [1, 1], [3, 1], [3, -1], [1, -1], [1, -3], [-1, -3], [-1, -1], [-3, -1], [-3, 1], [-1, 1], [-1, 3]]) / 3


def sample_outline(c, n, rng):
    if c == 0:
        t = rng.random(n) * 2 * np.pi
        a = rng.uniform(1.2, 1.8)
        pts = np.stack([a * np.cos(t), np.sin(t)], 1)
    elif c == 1:
        pts = _polygon(_regular(3), n, rng)
    elif c == 2:
        pts = _polygon(_regular(4), n, rng)
    elif c == 3:
        pts = _polygon(_regular(5), n, rng)
    elif c == 4:
        pts = _polygon(_regular(5, 1.0, rng.uniform(0.35, 0.5)), n, rng)
    else:
        pts = _polygon(CROSS, n, rng)
    th = rng.random() * 2 * np.pi
    R = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    pts = pts @ R.T * rng.uniform(0.5, 3.0) + rng.normal(0, 2.0, size=2)
    return pts + 0.03 * rng.standard_normal(pts.shape)


def radial_profile(pts, n_bins=64, kappa=12.0):
    p = pts - pts.mean(0)
    r = np.linalg.norm(p, axis=1)
    th = np.arctan2(p[:, 1], p[:, 0])
    phi = 2 * np.pi * np.arange(n_bins) / n_bins
    w = np.exp(kappa * (np.cos(th[None, :] - phi[:, None]) - 1))
    prof = (w * r).sum(1) / (w.sum(1) + 1e-8)
    return prof / prof.mean()


def make_split(n_per_class, n_points, seed):
    """Returns profiles grouped by class (class 0 first, then class 1, ...)."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for c in range(len(CLASSES)):
        for _ in range(n_per_class):
            X.append(radial_profile(sample_outline(c, n_points, rng)))
            y.append(c)
    return np.array(X, dtype=np.float32), np.array(y, dtype=np.int64)
