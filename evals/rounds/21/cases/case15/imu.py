import numpy as np

FS = 50


def strokes(n, window, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(window) / FS
    rate = rng.uniform(0.8, 1.6, n)            # strokes per second
    force = rng.uniform(0.5, 2.0, n)           # blade force proxy
    asym = rng.uniform(-0.3, 0.3, n)
    phase = rng.uniform(0, 2 * np.pi, n)
    w = 2 * np.pi * rate[:, None] * t[None, :] + phase[:, None]
    ax = force[:, None] * np.sin(w)
    ay = (force * asym)[:, None] * np.cos(w)
    az = 0.3 * np.sin(2 * w)
    gx = rate[:, None] * np.cos(w)
    gy = asym[:, None] * np.sin(2 * w)
    gz = 0.2 * np.cos(w)
    sig = np.stack([ax, ay, az, gx, gy, gz], 1) + rng.normal(0, 0.15, (n, 6, window))
    power = 120 * force * rate * (1 + 0.5 * asym) + rng.normal(0, 5, n)
    return sig.astype(np.float32), power.astype(np.float32)


def summary_features(sig):
    """Per-channel summary stats + dominant frequency magnitude."""
    spec = np.abs(np.fft.rfft(sig, axis=2))
    feats = [sig.mean(2), sig.std(2), np.abs(sig).max(2), spec.max(2), spec.argmax(2).astype(np.float32)]
    return np.concatenate(feats, 1).astype(np.float32)
