import numpy as np

CTX, HORIZON = 180, 20
WIN = CTX + HORIZON
FS = 20.0


def normal_window(rng):
    t = np.arange(WIN) / FS
    load = rng.uniform(0.4, 1.0)                          # turbine gate opening
    base = 12.0 - 3.0 * load ** 2                          # bar, static head minus losses
    surge = 0.25 * np.sin(2 * np.pi * rng.uniform(0.05, 0.12) * t + rng.uniform(0, 6.28))
    vortex = 0.08 * np.sin(2 * np.pi * rng.uniform(0.8, 1.2) * load * t + rng.uniform(0, 6.28))
    return base + surge + vortex + rng.normal(0, 0.02, WIN)


def anomalous_window(rng):
    x = normal_window(rng)
    kind = rng.integers(0, 3)
    t = np.arange(WIN) / FS
    if kind == 0:      # water hammer: damped oscillation after a fast gate move
        t0 = rng.uniform(5, 9.5)
        on = t >= t0
        x[on] += rng.uniform(0.3, 0.8) * np.exp(-(t[on] - t0) * 1.5) * np.sin(2 * np.pi * 2.5 * (t[on] - t0))
    elif kind == 1:    # sensor spikes
        for i in rng.choice(np.arange(CTX - 40, WIN), size=3, replace=False):
            x[i] += rng.choice([-1, 1]) * rng.uniform(0.2, 0.5)
    else:              # clogging rack: growing drop in the last seconds
        x[-60:] -= np.linspace(0, rng.uniform(0.2, 0.4), 60)
    return x


def dataset(n_normal, n_anom, seed):
    rng = np.random.default_rng(seed)
    xs = [normal_window(rng) for _ in range(n_normal)] + [anomalous_window(rng) for _ in range(n_anom)]
    y = np.r_[np.zeros(n_normal), np.ones(n_anom)]
    return np.stack(xs).astype(np.float32), y
