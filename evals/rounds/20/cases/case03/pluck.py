"""Synthetic pluck generator.

Physics: f0 = 1/(2L) * sqrt(T / mu). We sample L, mu and T, compute f0 and then
'measure' it with a bit of pitch-tracking noise. Decay and brightness depend weakly
on tension and on the winding, which makes the task a little less trivial.
"""
import numpy as np

FEATURES = ["log_f0", "log_len", "log_mu", "wound", "decay", "brightness"]


def make_plucks(n, seed=0):
    rng = np.random.default_rng(seed)
    length = rng.uniform(0.08, 1.6, n)               # metres
    mu = np.exp(rng.uniform(np.log(2e-4), np.log(8e-3), n))  # kg/m
    wound = (mu > 3e-3).astype(np.float64)
    tension = np.exp(rng.uniform(np.log(40.0), np.log(400.0), n))  # newtons
    f0 = np.sqrt(tension / mu) / (2.0 * length)
    f0_meas = f0 * np.exp(rng.normal(0, 0.02, n))
    decay = 0.4 + 0.15 * np.log(tension) - 0.3 * wound + rng.normal(0, 0.1, n)
    bright = 0.2 * np.log(f0) + 0.5 * wound + rng.normal(0, 0.2, n)
    X = np.stack([np.log(f0_meas), np.log(length), np.log(mu), wound, decay, bright], 1)
    y = np.log(tension)
    return X.astype(np.float32), y.astype(np.float32)
