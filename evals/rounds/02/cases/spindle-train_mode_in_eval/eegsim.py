import numpy as np

FS = 100  # Hz
CLASSES = ["background", "spindle", "k_complex"]


def _pink(n, rng):
    spec = np.fft.rfft(rng.normal(size=n))
    f = np.arange(len(spec))
    spec[1:] /= np.sqrt(f[1:])
    x = np.fft.irfft(spec, n)
    return x / x.std()


def simulate_recording(length, rng):
    t = np.arange(length) / FS
    x = 0.6 * _pink(length, rng)
    y = np.zeros(length, dtype=np.int64)
    n_events = rng.choice([0, 0, 1, 2, 3, 4, 5])
    for _ in range(n_events):
        kind = rng.integers(1, 3)
        if kind == 1:   # spindle: 0.5-1.5 s waxing-waning 12-14 Hz burst
            dur = int(rng.uniform(0.5, 1.5) * FS)
            s = rng.integers(0, length - dur)
            env = np.sin(np.linspace(0, np.pi, dur)) ** 2
            x[s:s + dur] += rng.uniform(0.8, 1.4) * env * np.sin(2 * np.pi * rng.uniform(12, 14) * t[:dur])
        else:           # K-complex: sharp negative then slower positive wave, ~0.8 s
            dur = int(rng.uniform(0.6, 1.0) * FS)
            s = rng.integers(0, length - dur)
            u = np.linspace(0, 1, dur)
            x[s:s + dur] += rng.uniform(2.0, 3.0) * (-np.exp(-((u - 0.3) / 0.1) ** 2)
                                                     + 0.6 * np.exp(-((u - 0.65) / 0.15) ** 2))
        y[s:s + dur] = kind
    gain = rng.uniform(0.6, 1.6)   # electrode impedance / amplifier gain
    return (gain * x).astype(np.float32), y


def simulate_set(n, length, seed):
    rng = np.random.default_rng(seed)
    recs = [simulate_recording(length, rng) for _ in range(n)]
    return np.stack([r[0] for r in recs]), np.stack([r[1] for r in recs])
