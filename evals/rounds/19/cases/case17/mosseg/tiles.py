import numpy as np

BARK, MOSS, LICHEN = 0, 1, 2


def _blob_mask(rng, size, n_blobs, r_lo, r_hi):
    yy, xx = np.mgrid[0:size, 0:size]
    m = np.zeros((size, size), bool)
    for _ in range(n_blobs):
        cy, cx = rng.uniform(0, size, 2)
        ry, rx = rng.uniform(r_lo, r_hi, 2)
        m |= ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1.0
    return m


def make_tiles(n, size=24, seed=0):
    rng = np.random.default_rng(seed)
    imgs = np.zeros((n, 3, size, size), np.float32)
    masks = np.zeros((n, size, size), np.int64)
    xx = np.arange(size)[None, :]
    for i in range(n):
        # bark: brown with vertical furrows
        phase = rng.uniform(0, 2 * np.pi)
        furrow = 0.5 + 0.5 * np.sin(xx * rng.uniform(0.6, 1.2) + phase)
        base = np.stack([0.35 + 0.1 * furrow, 0.25 + 0.08 * furrow, 0.15 + 0.05 * furrow]).repeat(size, 1)
        img = base + 0.05 * rng.normal(size=(3, size, size))
        lab = np.full((size, size), BARK)
        moss = _blob_mask(rng, size, rng.integers(1, 4), 2, 7)
        lichen = _blob_mask(rng, size, rng.integers(0, 3), 2, 5) & ~moss
        fuzz = 0.08 * rng.normal(size=(size, size))
        img[:, moss] = np.array([0.25, 0.5, 0.15])[:, None] + fuzz[moss]
        img[:, lichen] = np.array([0.6, 0.65, 0.55])[:, None] + 0.04 * rng.normal(size=lichen.sum())
        lab[moss] = MOSS
        lab[lichen] = LICHEN
        imgs[i], masks[i] = img, lab
    return imgs, masks
