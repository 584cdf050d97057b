import numpy as np

S = 16


def patch(rng, defect):
    yy, xx = np.mgrid[0:S, 0:S]
    cy, cx = S / 2 + rng.normal(0, 0.8, 2)
    r = rng.uniform(4.0, 5.5)
    ball = np.clip(1.0 - ((yy - cy) ** 2 + (xx - cx) ** 2) / r ** 2, 0, None) ** 0.5
    img = 0.2 + 0.7 * ball
    kind = None
    if defect:
        kind = rng.integers(2)
        if kind == 0:  # void: brighter (less absorbing) hole inside the ball
            vy, vx = cy + rng.normal(0, 1.2), cx + rng.normal(0, 1.2)
            vr = rng.uniform(1.2, 2.2)
            img -= 0.35 * (((yy - vy) ** 2 + (xx - vx) ** 2) < vr ** 2)
        else:  # bridge: a band of solder towards the neighbouring pad
            side = rng.integers(4)
            band = (np.abs(yy - cy) < rng.uniform(0.8, 1.6)) & (xx > cx)
            band = np.rot90(band, side)
            img = np.maximum(img, 0.55 * band)
    img += rng.normal(0, 0.06, (S, S))
    return img.astype(np.float32)


def make_patches(n, seed, defect_rate=0.125):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < defect_rate).astype(np.float32)
    x = np.stack([patch(rng, bool(d)) for d in y])[:, None]
    return x, y
