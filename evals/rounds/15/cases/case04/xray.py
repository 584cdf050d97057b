import numpy as np


def patch(rng, size, defect):
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    center = size / 2 + rng.uniform(-3, 3)
    width = rng.uniform(4, 7)
    img = 0.3 + 0.4 * np.exp(-((yy - center) / width) ** 2)          # seam band is denser
    img += 0.05 * np.sin(xx / rng.uniform(2, 5) + rng.uniform(0, 6))  # ripple texture
    if defect:
        if rng.random() < 0.5:   # porosity: a few dark round voids inside the seam
            for _ in range(rng.integers(2, 5)):
                cy = center + rng.uniform(-width / 2, width / 2)
                cx = rng.uniform(2, size - 2)
                r = rng.uniform(0.8, 1.6)
                img -= 0.25 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * r ** 2))
        else:                    # crack: thin dark line along the seam
            cy = center + rng.uniform(-2, 2)
            x0, x1 = sorted(rng.uniform(0, size, 2))
            x1 = max(x1, x0 + 8)
            line = np.exp(-((yy - cy - 0.1 * (xx - x0)) ** 2) / 0.5) * ((xx >= x0) & (xx <= x1))
            img -= 0.2 * line
    img += rng.normal(0, 0.04, img.shape)
    return img.astype(np.float32)


def make_set(n, size, defect_rate, seed, archive_order=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < defect_rate).astype(np.int64)
    if archive_order:
        y = np.sort(y)
    x = np.stack([patch(rng, size, bool(t)) for t in y])[:, None]
    return x, y
