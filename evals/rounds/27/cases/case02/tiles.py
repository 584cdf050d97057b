import numpy as np

H = W = 24
N_CLASSES = 3


def make_tile(rng):
    yy, xx = np.mgrid[0:H, 0:W] / float(H)
    cx, cy = rng.uniform(-0.5, 1.5, 2)
    elev = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) + 0.05 * rng.normal(size=(H, W))
    freq = rng.uniform(8, 14)
    terrace = (np.sin(2 * np.pi * freq * elev + rng.uniform(0, 6.28)) > 0.2)
    label = terrace.astype(np.int64)               # 1 = flooded terrace
    for _ in range(rng.integers(0, 3)):            # 2 = forest blobs
        bx, by, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.1, 0.25)
        label[(xx - bx) ** 2 + (yy - by) ** 2 < r ** 2] = 2
    bands = np.zeros((4, H, W), np.float32)
    noise = lambda s: rng.normal(0, s, (H, W))
    bands[0] = 0.4 + 0.1 * elev + noise(0.08)                    # red
    bands[1] = 0.5 + noise(0.08)                                 # green
    bands[2] = 0.3 + noise(0.08)                                 # nir
    bands[3] = 0.2 + noise(0.08)                                 # water index
    bands[3][label == 1] += 0.35
    bands[2][label == 2] += 0.3 + noise(0.15)[label == 2]
    bands[1][label == 2] -= 0.15
    return bands, label


def make_set(n, seed):
    rng = np.random.default_rng(seed)
    pairs = [make_tile(rng) for _ in range(n)]
    X = np.stack([p[0] for p in pairs])
    Y = np.stack([p[1] for p in pairs])
    return X, Y
