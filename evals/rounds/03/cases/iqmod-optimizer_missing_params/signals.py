"""Baseband I/Q bursts for six digital modulations, AWGN at random SNR."""
import numpy as np

MODS = ["bpsk", "qpsk", "8psk", "16qam", "pam4", "2fsk"]


def _symbols(mod, n, rng):
    if mod == "bpsk":
        return np.exp(1j * np.pi * rng.integers(0, 2, n))
    if mod == "qpsk":
        return np.exp(1j * (np.pi / 4 + np.pi / 2 * rng.integers(0, 4, n)))
    if mod == "8psk":
        return np.exp(1j * np.pi / 4 * rng.integers(0, 8, n))
    if mod == "16qam":
        lv = np.array([-3, -1, 1, 3]) / np.sqrt(5)
        return lv[rng.integers(0, 4, n)] + 1j * lv[rng.integers(0, 4, n)]
    if mod == "pam4":
        return np.array([-3, -1, 1, 3])[rng.integers(0, 4, n)] / np.sqrt(5) + 0j
    raise ValueError(mod)


def burst(mod, rng, n_sym=32, sps=4):
    if mod == "2fsk":
        bits = np.repeat(rng.integers(0, 2, n_sym) * 2 - 1, sps)
        s = np.exp(1j * np.cumsum(bits * np.pi / 4))
    else:
        s = np.repeat(_symbols(mod, n_sym, rng), sps)
    s = s * np.exp(1j * (rng.uniform(0, 2 * np.pi) + 2 * np.pi * rng.uniform(-0.002, 0.002) * np.arange(len(s))))
    snr_db = rng.uniform(4, 16)
    noise = (rng.normal(size=len(s)) + 1j * rng.normal(size=len(s))) * np.sqrt(10 ** (-snr_db / 10) / 2)
    s = s + noise
    return np.stack([s.real, s.imag]).astype(np.float32)


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(MODS), n)
    x = np.stack([burst(MODS[k], rng) for k in y])
    return x, y.astype(np.int64)
