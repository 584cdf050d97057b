"""Toy cell-degradation simulator.

Three latent mechanisms per cell (lithium inventory loss rate, active material
loss rate, impedance growth). The first 100 cycles expose them only through
noisy, nonlinear summaries of the discharge curves (a Q(V) difference curve
sampled at 16 voltages plus 4 scalar summaries).
"""
import numpy as np

N_FEATURES = 20


def _features(theta, chem_shift, rng):
    v = np.linspace(0, 1, 16)
    lli, lam, imp = theta[:, :1], theta[:, 1:2], theta[:, 2:3]
    dq = (0.6 * lli * np.exp(-((v - 0.3 - chem_shift) ** 2) / 0.02)
          + 0.4 * lam * np.tanh(4 * (v - 0.6))
          + 0.3 * imp * v ** 2 + 0.2 * lli * lam * np.sin(6 * v))
    summ = np.concatenate([np.log(dq.var(1, keepdims=True) + 1e-3), dq.min(1, keepdims=True),
                           imp + 0.1 * lli, np.exp(0.5 * lam)], axis=1)
    x = np.concatenate([dq, summ], axis=1)
    return x + rng.normal(0, 0.05, x.shape)


def old_chemistry(n, rng):
    theta = rng.normal(0, 1, (n, 3))
    x = _features(theta, 0.0, rng)
    life = 3.0 - 0.25 * theta[:, 0] - 0.15 * theta[:, 1] - 0.05 * theta[:, 2] ** 2
    cap500 = 0.9 - 0.05 * theta[:, 1] - 0.03 * theta[:, 0] * (theta[:, 2] > 0)
    res = 0.2 + 0.1 * np.exp(0.4 * theta[:, 2]) + 0.02 * theta[:, 0]
    y = np.stack([life, cap500, res], 1) + rng.normal(0, 0.02, (n, 3))
    return x.astype(np.float32), y.astype(np.float32)


def new_chemistry(n, rng):
    theta = rng.normal(0, 1, (n, 3))
    x = _features(theta, 0.03, rng)
    life = 3.2 - 0.1 * theta[:, 0] - 0.3 * theta[:, 1] - 0.12 * theta[:, 2] + 0.05 * theta[:, 1] * theta[:, 2]
    return x.astype(np.float32), (life + rng.normal(0, 0.03, n)).astype(np.float32)
