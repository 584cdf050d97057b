"""Feature pipeline: mel energies -> log -> DCT (MFCC) -> CMVN (-> masking)."""
import numpy as np


class Compose:
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, x, rng=None):
        for s in self.steps:
            x = s(x, rng) if getattr(s, "random", False) else s(x)
        return x

    def __repr__(self):
        return "Compose(" + ", ".join(type(s).__name__ for s in self.steps) + ")"


class LogCompress:
    def __init__(self, floor):
        self.floor = floor

    def __call__(self, mel):
        return np.log(np.maximum(mel, self.floor))


class DCT:
    """Type-II DCT over the mel axis, keep the first n_mfcc coefficients."""

    def __init__(self, n_mels, n_mfcc):
        n = np.arange(n_mels)
        k = np.arange(n_mfcc)[:, None]
        basis = np.cos(np.pi / n_mels * (n + 0.5) * k) * np.sqrt(2.0 / n_mels)
        basis[0] /= np.sqrt(2.0)
        self.basis = basis.astype(np.float32)

    def __call__(self, logmel):
        return logmel @ self.basis.T


class CMVN:
    """Per-utterance cepstral mean / variance normalisation (over time)."""

    def __init__(self, eps=1e-5):
        self.eps = eps

    def __call__(self, feats):
        mu = feats.mean(axis=0, keepdims=True)
        sd = feats.std(axis=0, keepdims=True)
        return (feats - mu) / (sd + self.eps)


class SpecMask:
    random = True

    def __init__(self, time_mask, freq_mask):
        self.tm, self.fm = time_mask, freq_mask

    def __call__(self, feats, rng):
        feats = feats.copy()
        T, F = feats.shape
        t = rng.integers(0, self.tm + 1)
        t0 = rng.integers(0, T - t + 1)
        feats[t0:t0 + t] = 0.0
        f = rng.integers(0, self.fm + 1)
        f0 = rng.integers(1, F - f + 1)
        feats[:, f0:f0 + f] = 0.0
        return feats


def build_transforms(cfg, n_mels, train):
    fc = cfg["features"]
    steps = [LogCompress(fc["log_floor"]), DCT(n_mels, fc["n_mfcc"])]
    if train:
        steps.append(CMVN())
        steps.append(SpecMask(fc["time_mask"], fc["freq_mask"]))
    return Compose(steps)
