import numpy as np

N_BINS = 64


def synth_spectra(n, seed):
    rng = np.random.default_rng(seed)
    semis = rng.uniform(0, 24, n).astype(np.float32)
    bins = np.arange(N_BINS)
    spec = np.zeros((n, N_BINS), dtype=np.float32)
    for i, s in enumerate(semis):
        f0_bin = 3.0 + 0.5 * s   # log-frequency axis, half a bin per semitone
        for k, amp in zip((0, 12, 19, 24), (1.0, 0.6, 0.35, 0.25)):
            centre = f0_bin + 0.5 * k + rng.normal(0, 0.2)
            spec[i] += amp * np.exp(-0.5 * ((bins - centre) / 1.1) ** 2)
        spec[i] += rng.uniform(0.05, 0.3) * np.exp(-bins / rng.uniform(5, 15))  # stick transient
    spec = np.log1p(8 * spec) + rng.normal(0, 0.05, spec.shape)
    return spec.astype(np.float32), semis
