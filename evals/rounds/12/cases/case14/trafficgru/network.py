"""Sensor graph and synthetic speed records.

Ten loop detectors along a freeway with one on-ramp branch. Queues form at a
bottleneck and spill back upstream, so a slowdown reaches sensor i a few
steps after it reached sensor i+1.
"""
import numpy as np

N_SENSORS = 10
# directed edges: downstream -> upstream (congestion travels against the flow)
EDGES = [(i + 1, i) for i in range(7)] + [(8, 9), (3, 8)]


def adjacency():
    A = np.zeros((N_SENSORS, N_SENSORS), np.float32)
    for src, dst in EDGES:
        A[dst, src] = 1.0
    A += np.eye(N_SENSORS, dtype=np.float32)
    return A / A.sum(axis=1, keepdims=True)


def simulate(n_days, steps_per_day=288, seed=0):
    rng = np.random.default_rng(seed)
    hops = np.array([7, 6, 5, 4, 3, 2, 1, 0, 4, 5])      # distance from the bottleneck
    free = rng.uniform(95, 115, N_SENSORS)
    t = np.arange(steps_per_day)
    days = []
    for _ in range(n_days):
        sev_am, sev_pm = rng.uniform(0.1, 0.6, 2)
        on_am, on_pm = rng.normal(96, 6), rng.normal(204, 6)
        v = np.zeros((steps_per_day, N_SENSORS))
        for n in range(N_SENSORS):
            lag = 3 * hops[n]
            dip = (sev_am * np.exp(-((t - on_am - lag) / 14) ** 2)
                   + sev_pm * np.exp(-((t - on_pm - lag) / 18) ** 2)) * (1 - 0.06 * hops[n])
            noise = np.zeros(steps_per_day)
            e = rng.normal(0, 1.5, steps_per_day)
            for k in range(1, steps_per_day):
                noise[k] = 0.8 * noise[k - 1] + e[k]
            v[:, n] = free[n] * (1 - dip) + noise
        days.append(v)
    return np.concatenate(days).astype(np.float32)     # [T_total, N]


def windows(series, history, horizon):
    T = len(series)
    idx = np.arange(history, T - horizon + 1)
    X = np.stack([series[i - history:i] for i in idx])      # [S, history, N]
    Y = series[idx + horizon - 1]                            # [S, N]
    return X, Y
