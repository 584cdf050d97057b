import math

import numpy as np


def hawkes_exp(n_events, mu=0.4, alpha=0.9, beta=1.6, seed=0):
    """Ogata thinning for a univariate Hawkes process with kernel alpha*exp(-beta*t)."""
    rng = np.random.default_rng(seed)
    t, excite = 0.0, 0.0  # excite = sum alpha*exp(-beta*(t - t_i)) at time t
    times = []
    while len(times) < n_events:
        lam_bar = mu + excite
        w = rng.exponential(1.0 / lam_bar)
        excite *= math.exp(-beta * w)
        t += w
        if rng.random() * lam_bar <= mu + excite:
            times.append(t)
            excite += alpha
    return np.diff(np.array([0.0] + times)).astype(np.float32)
