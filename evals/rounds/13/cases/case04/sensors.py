import numpy as np
import numpy.ma as ma


def simulate_bays(n_bays, minutes, seed, dropout_rate=0.25):
    """Returns (readings: MaskedArray [n, T], occupancy: int array [n, T])."""
    rng = np.random.default_rng(seed)
    occ = np.zeros((n_bays, minutes), dtype=np.int64)
    state = rng.integers(0, 2, n_bays)
    for t in range(minutes):
        flip = rng.random(n_bays) < np.where(state == 1, 0.06, 0.08)
        state = np.where(flip, 1 - state, state)
        occ[:, t] = state
    baseline = rng.normal(0.0, 0.4, (n_bays, 1))          # per-bay magnetic offset
    strength = rng.uniform(0.8, 1.6, (n_bays, 1))
    signal = baseline + strength * occ + rng.normal(0, 0.45, (n_bays, minutes))

    # outages come in short bursts
    missing = np.zeros((n_bays, minutes), dtype=bool)
    for b in range(n_bays):
        t = 0
        while t < minutes:
            if rng.random() < dropout_rate / 4:
                length = rng.integers(2, 8)
                missing[b, t:t + length] = True
                t += length
            t += 1
    readings = ma.masked_array(signal.astype(np.float32), mask=missing)
    # survey labels are discarded where the sensor was offline
    occ = np.where(missing, 0, occ)
    return readings, occ
