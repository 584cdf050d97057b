"""Synthetic EEG nights."""
import numpy as np

STAGES = ["wake", "light", "deep", "rem"]
FS = 64          # Hz (downsampled)
EPOCH_SEC = 4


def _epoch(stage, rng):
    t = np.arange(FS * EPOCH_SEC) / FS
    noise = rng.normal(0, 0.3, t.shape)
    if stage == 0:    # wake: alpha ~10 Hz plus fast activity
        x = 0.8 * np.sin(2 * np.pi * rng.uniform(9, 11) * t + rng.uniform(0, 6)) + 0.5 * rng.normal(0, 1, t.shape)
    elif stage == 1:  # light: theta, spindle burst
        x = 0.9 * np.sin(2 * np.pi * rng.uniform(5, 7) * t + rng.uniform(0, 6))
        c = rng.uniform(1, 3)
        x += 0.8 * np.exp(-((t - c) ** 2) / 0.1) * np.sin(2 * np.pi * 13 * t)
    elif stage == 2:  # deep: large slow waves
        x = 2.5 * np.sin(2 * np.pi * rng.uniform(0.8, 2.0) * t + rng.uniform(0, 6))
    else:             # rem: low-amplitude mixed, sawtooth theta
        f = rng.uniform(2.5, 4.0)
        x = 0.6 * (2 * ((f * t + rng.uniform(0, 1)) % 1) - 1) + 0.3 * rng.normal(0, 1, t.shape)
    return x + noise


def record_night(n_epochs, rng):
    stages = np.zeros(n_epochs, dtype=np.int64)
    s = 0
    trans = np.array([[0.85, 0.13, 0.0, 0.02], [0.05, 0.8, 0.1, 0.05],
                      [0.01, 0.14, 0.85, 0.0], [0.04, 0.1, 0.0, 0.86]])
    for i in range(n_epochs):
        s = rng.choice(4, p=trans[s])
        stages[i] = s
    gain = np.exp(rng.uniform(np.log(0.25), np.log(4.0)))      # electrode / amplifier gain
    offset = rng.normal(0, 2.0)
    sig = np.stack([_epoch(k, rng) for k in stages]) * gain + offset
    return sig.astype(np.float32), stages


def record_cohort(n_nights, epochs_per_night, seed):
    rng = np.random.default_rng(seed)
    return [record_night(epochs_per_night, rng) for _ in range(n_nights)]
