import numpy as np

N_POINTS = 48


def flicker_curves(n, seed):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 4, N_POINTS)
    wick = rng.uniform(0.5, 1.5, (n, 1))
    draught = rng.uniform(0.0, 1.0, (n, 1))
    wax = rng.uniform(0.2, 1.0, (n, 1))
    freq = 1.0 + 2.5 * draught
    base = 0.4 + 0.6 * wax * wick
    flick = draught * wick * np.sin(2 * np.pi * freq * t + 3 * wax)
    sag = -0.3 * (1 - wax) * t / 4
    x = base + 0.4 * flick + sag + rng.normal(0, 0.03, (n, N_POINTS))
    return x.astype(np.float32)
