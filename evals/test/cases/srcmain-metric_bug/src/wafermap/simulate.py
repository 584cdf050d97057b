import numpy as np

from . import PATTERNS

GRID = 10


def _radius_grid():
    yy, xx = np.mgrid[0:GRID, 0:GRID]
    c = (GRID - 1) / 2
    return np.sqrt((yy - c) ** 2 + (xx - c) ** 2), yy, xx


def simulate_wafers(n, seed, base_fail=0.08):
    rng = np.random.default_rng(seed)
    r, yy, xx = _radius_grid()
    on_wafer = r <= GRID / 2
    maps = np.zeros((n, GRID, GRID), dtype=np.float32)
    labels = rng.integers(0, len(PATTERNS), size=n)
    for i, pat in enumerate(labels):
        p = np.full((GRID, GRID), base_fail)
        name = PATTERNS[pat]
        if name == "center":
            p += 0.7 * (r < rng.uniform(1.5, 2.5))
        elif name == "edge_ring":
            p += 0.7 * (r > rng.uniform(3.6, 4.2))
        elif name == "scratch":
            angle = rng.uniform(0, np.pi)
            offset = rng.uniform(-2, 2)
            dist = np.abs((xx - 4.5) * np.sin(angle) - (yy - 4.5) * np.cos(angle) - offset)
            p += 0.75 * (dist < 0.6)
        elif name == "donut":
            p += 0.7 * ((r > 1.8) & (r < 3.2))
        elif name == "local":
            cy, cx = rng.uniform(1.5, 7.5, size=2)
            p += 0.75 * (np.hypot(yy - cy, xx - cx) < 1.6)
        fails = rng.random((GRID, GRID)) < np.clip(p, 0, 0.95)
        maps[i] = np.where(on_wafer, fails.astype(np.float32), 0.0)
    return maps, labels.astype(np.int64)
