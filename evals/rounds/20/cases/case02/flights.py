import numpy as np

STEPS = 120            # telemetry every 10 s for 20 min of climb


def simulate(n, seed=0):
    rng = np.random.default_rng(seed)
    mass = rng.uniform(0.2, 1.2, n)                 # kg envelope
    fill = rng.uniform(0.9, 1.4, n)                 # neck lift / envelope mass
    burst_diam = 4.0 + 6.0 * mass                   # manufacturer burst diameter (m)
    d0 = 1.2 + 0.8 * mass * fill
    # envelope grows as ambient pressure drops: d ~ d0 * (p0/p)^(1/3), p ~ exp(-h/7)
    burst_h = 3 * 7.0 * np.log(burst_diam / d0)     # km
    rate = 0.004 * fill * (1 + 0.03 * rng.normal(size=n)) + 0.003  # km/s
    t = np.arange(STEPS) * 10.0
    h = np.minimum(rate[:, None] * t[None], burst_h[:, None] * 0.97)
    diam = d0[:, None] * np.exp(h / 21.0) * (1 + 0.02 * rng.normal(size=(n, STEPS)))
    temp = 15 - 6.5 * np.minimum(h, 11) + rng.normal(0, 0.5, (n, STEPS))
    asc = np.gradient(h, axis=1) / 10.0 * 1000 + rng.normal(0, 0.3, (n, STEPS))
    X = np.stack([h / 10.0, asc / 5.0, temp / 20.0, diam / 5.0], -1).astype(np.float32)
    y = np.repeat(burst_h[:, None], STEPS, 1).astype(np.float32)
    return X, y
