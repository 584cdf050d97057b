import numpy as np

G = 10
CLASSES = ["spheroid", "conical", "lobed"]


def _grid():
    ax = np.linspace(-1, 1, G)
    return np.meshgrid(ax, ax, ax, indexing="ij")


def scan(kind, rng):
    x, y, z = _grid()
    # random orientation: permute axes and flip
    axes = rng.permutation(3)
    x, y, z = [(x, y, z)[a] * rng.choice([-1, 1]) for a in axes]
    r = rng.uniform(0.55, 0.85)
    if kind == 0:
        a = rng.uniform(0.85, 1.15)
        occ = (x / (r * a)) ** 2 + (y / r) ** 2 + (z / r) ** 2 < 1
    elif kind == 1:
        h = (z + 1) / 2
        occ = (x ** 2 + y ** 2 < (r * h) ** 2) & (z > -0.9) & (z < 0.9)
    else:
        occ = np.zeros_like(x, dtype=bool)
        for _ in range(rng.integers(3, 6)):
            c = rng.uniform(-0.45, 0.45, 3)
            occ |= (x - c[0]) ** 2 + (y - c[1]) ** 2 + (z - c[2]) ** 2 < (0.55 * r) ** 2
    vol = occ.astype(np.float32)
    vol += rng.normal(0, 0.15, vol.shape).astype(np.float32)   # scanner speckle
    return vol


def make_scans(n_per_class, seed):
    """Scans are produced one storm cell (class) at a time."""
    rng = np.random.default_rng(seed)
    vols, labels = [], []
    for k in range(len(CLASSES)):
        for _ in range(n_per_class):
            vols.append(scan(k, rng))
            labels.append(k)
    return np.stack(vols)[:, None], np.array(labels, dtype=np.int64)
