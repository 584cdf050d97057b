import numpy as np

SIZE = 12
GRADES = {"fine": (14, 22), "medium": (6, 10), "coarse": (2, 4)}     # cells per crop


def _grid():
    ax = np.arange(SIZE) + 0.5
    return np.stack(np.meshgrid(ax, ax, ax, indexing="ij"), -1).reshape(-1, 3)


GRID = _grid()


def foam_crop(rng, n_cells):
    centres = rng.uniform(-2, SIZE + 2, size=(n_cells, 3))
    d = np.sqrt(((GRID[:, None, :] - centres[None]) ** 2).sum(-1))
    d.sort(axis=1)
    wall = rng.uniform(0.5, 1.0)
    solid = (d[:, 1] - d[:, 0] < wall).astype(np.float32)
    vol = solid.reshape(SIZE, SIZE, SIZE)
    vol = vol * rng.uniform(0.85, 1.15) + rng.normal(0, 0.25, vol.shape) + rng.uniform(-0.15, 0.15)
    return vol.astype(np.float32)


def make_split(n_per_grade, seed):
    """Scans come in per grade (one foam batch per grade), in that order."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for label, (lo, hi) in enumerate(GRADES.values()):
        for _ in range(n_per_grade):
            xs.append(foam_crop(rng, rng.integers(lo, hi + 1)))
            ys.append(label)
    return np.stack(xs)[:, None], np.array(ys, np.int64)
