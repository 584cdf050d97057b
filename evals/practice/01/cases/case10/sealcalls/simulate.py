"""Hydrophone clip simulator.

Each call type has a characteristic band and temporal modulation:
  growl  - low band, rough amplitude modulation
  roar   - low/mid band, long rising sweep
  bark   - mid band, short repeated pulses
  moan   - mid/high band, slow falling sweep
  clicks - broadband, fast regular clicks
"""
import numpy as np

CALL_TYPES = ["growl", "roar", "bark", "moan", "clicks"]


def _call(kind, T, n_mels, rng):
    t = np.arange(T)[:, None]
    m = np.arange(n_mels)[None, :]
    start = rng.uniform(0.1, 0.3)
    if kind == 0:
        centre = np.full((T, 1), 0.15 * n_mels)
        amp = 0.6 + 0.4 * (np.sin(t * rng.uniform(0.9, 1.4)) > 0)
    elif kind == 1:
        centre = (0.2 + 0.35 * t / T) * n_mels
        amp = np.ones((T, 1))
    elif kind == 2:
        centre = np.full((T, 1), 0.45 * n_mels)
        amp = ((t % rng.integers(6, 9)) < 2).astype(float)
    elif kind == 3:
        centre = (0.8 - 0.3 * t / T) * n_mels
        amp = np.ones((T, 1)) * 0.9
    else:
        centre = np.full((T, 1), 0.5 * n_mels)
        amp = ((t % 3) == 0).astype(float)
    width = 6.0 if kind == 4 else 1.6
    spec = amp * np.exp(-0.5 * ((m - centre) / width) ** 2)
    onset = int(start * T)
    spec[:onset] = 0.0
    return spec


def simulate_clips(cfg, rng):
    clips, labels = [], []
    for _ in range(cfg.n_clips):
        T = int(rng.integers(cfg.min_frames, cfg.max_frames + 1))
        kind = int(rng.integers(len(CALL_TYPES)))
        boat = 0.25 * np.exp(-np.arange(cfg.n_mels) / 6.0)[None, :] * rng.uniform(0.5, 1.5)
        noise = rng.normal(0, 0.22, (T, cfg.n_mels))
        if rng.random() < cfg.silent_fraction:
            sig = 0.0                   # nothing but background
        else:
            sig = 2.0 * _call(kind, T, cfg.n_mels, rng)
        clips.append((sig + boat + noise).astype(np.float32))
        labels.append(kind)
    return clips, labels
