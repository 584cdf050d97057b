"""Synthetic wrist PPG windows (8 s at 32 Hz) with heart-rate labels in bpm."""
import numpy as np

FS = 32
WIN = 8 * FS


def make_windows(n, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(WIN) / FS
    X = np.zeros((n, WIN), np.float32)
    hr = rng.uniform(50, 150, n).astype(np.float32)
    for i in range(n):
        f0 = hr[i] / 60 * (1 + 0.03 * np.sin(2 * np.pi * rng.uniform(0.05, 0.2) * t))
        phase = 2 * np.pi * np.cumsum(f0) / FS + rng.uniform(0, 2 * np.pi)
        pulse = np.sin(phase) + 0.45 * np.sin(2 * phase + 0.8) + 0.15 * np.sin(3 * phase + 1.1)
        wander = rng.uniform(1, 3) * np.sin(2 * np.pi * rng.uniform(0.05, 0.3) * t + rng.uniform(0, 6))
        motion = rng.uniform(0, 0.8) * np.sin(2 * np.pi * rng.uniform(0.5, 3.5) * t + rng.uniform(0, 6))
        X[i] = rng.uniform(0.5, 2.0) * pulse + wander + motion + rng.normal(0, 0.5, WIN) + rng.uniform(-5, 5)
    return X, hr


def bandpass_taps(low_hz=0.5, high_hz=4.0, n_taps=63, fs=FS):
    """Windowed-sinc FIR band-pass (Hamming)."""
    m = np.arange(n_taps) - (n_taps - 1) / 2
    def lowpass(fc):
        return 2 * fc / fs * np.sinc(2 * fc / fs * m)
    h = (lowpass(high_hz) - lowpass(low_hz)) * np.hamming(n_taps)
    return h.astype(np.float32)
