import numpy as np

N = 200


def _lissajous(t, centre, width, amp, phase):
    env = np.exp(-0.5 * ((t - centre) / width) ** 2)
    return amp * env * np.sin(2 * np.pi * (t - centre) / (4 * width)), amp * env * np.sin(
        2 * np.pi * (t - centre) / (4 * width) + phase)


def simulate(n, flaw_rate, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(N, dtype=np.float64)
    x = np.zeros((n, 2, N), np.float32)
    y = (rng.random(n) < flaw_rate).astype(np.float32)
    for i in range(n):
        h = np.cumsum(rng.normal(0, 0.02, N))             # probe wobble / lift-off drift
        v = np.cumsum(rng.normal(0, 0.02, N))
        for _ in range(rng.integers(0, 3)):                # support plates / deposits: in-phase
            a, b = _lissajous(t, rng.uniform(20, 180), rng.uniform(4, 9), rng.uniform(0.5, 1.6), 0.0)
            h += a; v += 0.6 * b
        if y[i]:                                           # flaw: out-of-phase figure eight
            a, b = _lissajous(t, rng.uniform(20, 180), rng.uniform(3, 6), rng.uniform(0.25, 0.8),
                              rng.uniform(0.6, 1.6))
            h += a; v += b
        x[i, 0], x[i, 1] = h + rng.normal(0, 0.05, N), v + rng.normal(0, 0.05, N)
    return x, y
