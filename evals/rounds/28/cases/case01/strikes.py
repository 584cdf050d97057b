import numpy as np

SR = 16000
N = 1024
PARTIALS = np.array([1.0, 2.76, 5.40, 8.93])
N_BINS = 384


def midi_to_hz(m):
    return 440.0 * 2 ** ((m - 69) / 12)


def strike(midi, rng):
    t = np.arange(N) / SR
    f0 = midi_to_hz(midi)
    hardness = rng.uniform(0.2, 1.0)
    sig = np.zeros(N)
    for k, r in enumerate(PARTIALS):
        f = f0 * r
        if f >= SR / 2:
            break
        amp = hardness ** k * rng.uniform(0.6, 1.0)
        sig += amp * np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi)) * np.exp(-t * rng.uniform(3, 12) * (1 + k))
    sig += rng.normal(0, 0.02, N)
    spec = np.abs(np.fft.rfft(sig * np.hanning(N)))[:N_BINS]
    return np.log1p(spec).astype(np.float32)


def make_set(n, seed):
    rng = np.random.default_rng(seed)
    midi = rng.uniform(79, 100, n)
    X = np.stack([strike(m, rng) for m in midi])[:, None, :]
    return X, midi.astype(np.float32)
