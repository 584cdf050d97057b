import math

import numpy as np
import torch
from torch.utils.data import Dataset

C4 = 261.63
# partial ratios of a tuned handbell (hum, fundamental, tierce, quint, twelfth, ...)
PARTIALS = [(0.5, 0.5), (1.0, 1.0), (1.19, 0.35), (1.5, 0.25), (3.0, 0.6), (4.2, 0.2)]


def semitone_to_hz(s):
    return C4 * 2.0 ** (s / 12.0)


def render(semitone, cfg, rng):
    sr, n = cfg["sample_rate"], cfg["clip_len"]
    t = np.arange(n) / sr
    f0 = semitone_to_hz(semitone)
    x = np.zeros(n)
    for ratio, amp in PARTIALS:
        f = f0 * ratio * (1 + rng.normal(0, 0.004))
        if f >= sr / 2:
            continue
        decay = rng.uniform(2.0, 8.0)
        x += amp * rng.uniform(0.6, 1.2) * np.exp(-decay * t) * np.sin(2 * math.pi * f * t + rng.uniform(0, 6.28))
    x += cfg["noise"] * rng.normal(size=n)
    return x


def log_spectrum(x):
    win = np.hanning(len(x))
    mag = np.abs(np.fft.rfft(x * win))
    return np.log1p(mag)


class BellClips(Dataset):
    def __init__(self, n, cfg, seed):
        rng = np.random.default_rng(seed)
        self.pitch = rng.uniform(cfg["low_semitone"], cfg["high_semitone"], n)
        spec = np.stack([log_spectrum(render(p, cfg, rng)) for p in self.pitch])
        self.spec = torch.tensor(spec, dtype=torch.float32)
        self.mid = 0.5 * (cfg["low_semitone"] + cfg["high_semitone"])
        self.half = 0.5 * (cfg["high_semitone"] - cfg["low_semitone"])

    def __len__(self):
        return len(self.pitch)

    def __getitem__(self, i):
        # target scaled to roughly [-1, 1]
        target = torch.tensor([(self.pitch[i] - self.mid) / self.half], dtype=torch.float32)
        return self.spec[i], target
