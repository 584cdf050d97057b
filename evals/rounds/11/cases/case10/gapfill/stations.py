import numpy as np


def simulate_network(n_stations=12, n_hours=24 * 400, seed=5):
    """Hourly air temperature at a cluster of weather stations (deg C).

    A shared regional signal (seasonal + diurnal cycle + slowly wandering
    synoptic anomaly) plus per-station offsets (elevation), per-station diurnal
    amplitude, and local noise.
    """
    rng = np.random.default_rng(seed)
    t = np.arange(n_hours)
    season = 8 * np.sin(2 * np.pi * t / (24 * 365))
    diurnal = np.sin(2 * np.pi * (t % 24 - 9) / 24)
    anomaly = np.cumsum(rng.normal(0, 0.35, n_hours))
    anomaly -= np.convolve(anomaly, np.ones(24 * 7) / (24 * 7), mode="same")
    elevation = rng.uniform(0, 1500, n_stations)
    amp = rng.uniform(3, 8, n_stations)
    temps = np.empty((n_hours, n_stations))
    for s in range(n_stations):
        temps[:, s] = (12 + season + amp[s] * diurnal + anomaly - 0.0065 * elevation[s]
                       + rng.normal(0, 0.4, n_hours))
    return temps.astype(np.float32)


def windows(temps, length=24, stride=6):
    starts = np.arange(0, len(temps) - length + 1, stride)
    return np.stack([temps[s:s + length] for s in starts])      # (N, length, n_stations)
