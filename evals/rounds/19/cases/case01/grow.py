import numpy as np

S = 12
FORMS = ["branching", "massive", "plate"]


def _ball(vol, c, r, val=1.0):
    z, y, x = np.ogrid[:S, :S, :S]
    vol[(z - c[0]) ** 2 + (y - c[1]) ** 2 + (x - c[2]) ** 2 <= r * r] = val


def grow(form, rng):
    v = np.zeros((S, S, S), np.float32)
    if form == 0:     # branching: random walks upward that fork
        tips = [np.array([0, rng.integers(3, 9), rng.integers(3, 9)], float)]
        for _ in range(10):
            new = []
            for t in tips:
                t = t + np.array([1.0, rng.normal(0, 0.7), rng.normal(0, 0.7)])
                t = np.clip(t, 0, S - 1)
                _ball(v, t.astype(int), 1)
                new.append(t)
                if rng.random() < 0.25 and len(tips) < 5:
                    new.append(t + np.array([0, rng.normal(0, 1.5), rng.normal(0, 1.5)]))
            tips = new
    elif form == 1:   # massive: one lumpy dome
        c = np.array([rng.integers(2, 4), rng.integers(4, 8), rng.integers(4, 8)])
        _ball(v, c, rng.uniform(3.5, 5.0))
        for _ in range(3):
            _ball(v, c + rng.integers(-2, 3, 3), rng.uniform(2, 3))
    else:             # plate: thin tilted sheet
        z0 = rng.uniform(3, 8)
        a, b = rng.normal(0, 0.25, 2)
        z, y, x = np.mgrid[:S, :S, :S]
        plane = z - (z0 + a * (y - S / 2) + b * (x - S / 2))
        v[np.abs(plane) < rng.uniform(0.6, 1.1)] = 1.0
    v *= rng.uniform(0.6, 1.4)                         # mineral density varies by colony
    v += rng.normal(0, 0.25, v.shape).astype(np.float32)
    return v


def dataset(n, seed, sort_by_form=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    if sort_by_form:
        y = np.sort(y)
    X = np.stack([grow(int(f), rng) for f in y])[:, None]
    return X.astype(np.float32), y.astype(np.int64)
