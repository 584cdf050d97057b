import numpy as np

N_BANDS = 32


def tap_features(n, flaw_rate, seed):
    rng = np.random.default_rng(seed)
    flaw = (rng.random(n) < flaw_rate).astype(np.float32)
    bands = np.arange(N_BANDS)
    # healthy bolt: resonance near band 10, long ring-down
    centre = 10 + rng.normal(0, 1.5, n) + 5 * flaw * rng.uniform(0.6, 1.4, n)
    width = 3 + 2.5 * flaw + rng.normal(0, 0.5, n)
    spec = np.exp(-0.5 * ((bands[None] - centre[:, None]) / width[:, None]) ** 2)
    spec = np.log(spec + 0.05) + rng.normal(0, 0.35, (n, N_BANDS))
    decay = rng.normal(0.30, 0.05, n) - 0.07 * flaw
    x = np.concatenate([spec, decay[:, None]], 1).astype(np.float32)
    return x, flaw
