import numpy as np

FS = 200
N = 96


def simulate_bounces(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(N) / FS
    mass = rng.uniform(40, 95, n)[:, None]
    stiffness = rng.uniform(4e3, 9e3, n)[:, None]
    drop = rng.uniform(0.3, 2.0, n)[:, None]          # fall height, m
    v0 = np.sqrt(2 * 9.81 * drop)
    w = np.sqrt(stiffness / mass)
    onset = rng.uniform(0.05, 0.12, n)[:, None]
    tau = np.clip(t - onset, 0, None)
    contact = (tau > 0) & (w * tau < np.pi)
    accel = np.where(contact, v0 * w * np.sin(w * tau), 0.0)
    ring_f = rng.uniform(18, 30, n)[:, None]
    ring = 0.15 * accel.max(1, keepdims=True) * np.exp(-12 * tau) * np.sin(2 * np.pi * ring_f * tau) * (tau > 0)
    gain = rng.uniform(0.85, 1.15, n)[:, None]          # sensor mounting
    trace = gain * (accel + ring) + rng.normal(0, 2.0, (n, N))
    peak_bw = 1 + (v0 * w / 9.81)[:, 0]                # peak force / body weight
    return trace.astype(np.float32), peak_bw.astype(np.float32)
