"""Simulated lap telemetry. Compound changes peak grip and how fast it fades."""
import numpy as np

COMPOUNDS = ["soft", "medium", "hard"]
GRIP = np.array([1.25, 1.0, 0.8])
FADE = np.array([0.006, 0.003, 0.001])


def simulate_laps(n_laps, n_samples, seed):
    rng = np.random.default_rng(seed)
    track_curv = np.sin(np.linspace(0, 6 * np.pi, n_samples)) * np.linspace(0.6, 1.0, n_samples)
    X = np.zeros((n_laps, 5, n_samples), dtype=np.float32)
    lap_time = np.zeros(n_laps, dtype=np.float32)
    compound = rng.integers(0, 3, n_laps)
    for i in range(n_laps):
        c = compound[i]
        lap_in_stint = rng.integers(1, 30)
        skill = rng.normal(1.0, 0.06)
        grip = GRIP[c] * (1 - FADE[c] * lap_in_stint) * rng.normal(1.0, 0.03)
        corner_speed = np.sqrt(grip * 9.0 / (np.abs(track_curv) + 0.15))
        speed = np.minimum(corner_speed, 11.0 * skill) + rng.normal(0, 0.15, n_samples)
        lat_g = speed ** 2 * np.abs(track_curv) / 9.81 / 6.0 + rng.normal(0, 0.03, n_samples)
        throttle = np.clip(np.gradient(speed) * 2 + 0.6, 0, 1)
        brake = np.clip(-np.gradient(speed) * 2, 0, 1)
        steer = track_curv + rng.normal(0, 0.05, n_samples)
        X[i] = np.stack([speed / 10, throttle, brake, lat_g, steer])
        lap_time[i] = (400.0 / speed.mean()) + rng.normal(0, 0.2)
    return X, lap_time, compound
