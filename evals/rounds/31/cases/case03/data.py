"""Synthetic ankle IMU recordings for stilt walkers."""
import numpy as np

STATES = ["steady", "sway", "recover"]


def _window(state, rng, length):
    t = np.arange(length) / 50.0
    base = rng.normal(0, 0.2, (length, 3))
    if state == 1:
        base[:, 0] += 1.2 * np.sin(2 * np.pi * rng.uniform(0.8, 1.4) * t)
    elif state == 2:
        base[:, 1] += 2.0 * np.exp(-t * 3) * np.sign(rng.normal())
        base[:, 2] += np.linspace(1, 0, length)
    return base.astype(np.float32)


def load_recordings(n_walkers, per_walker, length, seed):
    """Returns a list of (walker_id, window_id, window, state) records."""
    rng = np.random.default_rng(seed)
    records = []
    for w in range(n_walkers):
        gain = rng.uniform(0.8, 1.2)
        for k in range(per_walker):
            s = int(rng.integers(0, 3))
            records.append((w, k, gain * _window(s, rng, length), s))
    rng.shuffle(records)
    return records


def windows_array(records):
    return np.stack([r[2] for r in records])


def state_array(records):
    # stable order: walker, then window index
    ordered = sorted(records, key=lambda r: (r[0], r[1]))
    return np.array([r[3] for r in ordered], dtype=np.int64)


def walker_array(records):
    return np.array([r[0] for r in records])
