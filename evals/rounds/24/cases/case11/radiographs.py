import numpy as np

SIZE = 24


def render(n, seed, flaw_rate=0.12):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    imgs = np.empty((n, SIZE, SIZE), np.float32)
    labels = (rng.random(n) < flaw_rate).astype(np.float32)
    for i in range(n):
        # weld bead: a brighter horizontal band with ripple, film density varies
        centre = SIZE / 2 + rng.normal(0, 1.5)
        width = rng.uniform(4, 7)
        bead = np.exp(-((yy - centre) / width) ** 2)
        ripple = 0.08 * np.sin(xx * rng.uniform(0.6, 1.2) + rng.uniform(0, 6))
        img = rng.uniform(0.3, 0.6) + 0.5 * bead + ripple * bead
        if labels[i]:
            kind = rng.integers(3)
            if kind == 0:   # porosity: a few dark round spots inside the bead
                for _ in range(rng.integers(2, 5)):
                    cy, cx = centre + rng.normal(0, 2), rng.uniform(3, SIZE - 3)
                    img -= 0.22 * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 2.0)
            elif kind == 1:  # slag line along the bead
                cy, x0 = centre + rng.normal(0, 1.5), rng.uniform(2, 10)
                ln = rng.uniform(6, 12)
                img -= 0.2 * np.exp(-((yy - cy) ** 2) / 0.8) * ((xx > x0) & (xx < x0 + ln))
            else:            # lack of fusion at the bead edge
                cy = centre + rng.choice([-1, 1]) * width * 0.8
                img -= 0.2 * np.exp(-((yy - cy) ** 2) / 0.6) * (xx > rng.uniform(0, 12))
        img += rng.normal(0, 0.06, img.shape)
        imgs[i] = img
    # a few films were too fogged to grade; the inspector left them as -1
    fogged = rng.random(n) < 0.05
    imgs[fogged] += rng.uniform(0.3, 0.6, size=(fogged.sum(), 1, 1)).astype(np.float32)
    labels[fogged] = -1.0
    return imgs, labels
