"""Synthetic keyword corpus.

Each keyword is a smooth template in the (frames x mel bands) plane. An utterance
is the template played at a random speed, placed at a random offset in the
window, passed through a random "microphone" (overall gain + spectral tilt) and
mixed with background noise. Everything stays in the linear mel-energy domain,
like what a filterbank frontend would hand us.
"""
import numpy as np


def _smooth(x, k=5):
    ker = np.ones(k) / k
    return np.apply_along_axis(lambda r: np.convolve(r, ker, mode="same"), 0, x)


def make_templates(n_kw, n_frames, n_mels, rng):
    temps = []
    for _ in range(n_kw):
        # a few formant-like ridges that move over time
        t = np.linspace(0, 1, n_frames)[:, None]
        bands = np.arange(n_mels)[None, :]
        tpl = np.zeros((n_frames, n_mels))
        for _ in range(3):
            c0, c1 = rng.uniform(2, n_mels - 3, size=2)
            width = rng.uniform(1.0, 2.5)
            amp = rng.uniform(0.6, 1.4)
            centre = c0 + (c1 - c0) * t
            tpl += amp * np.exp(-0.5 * ((bands - centre) / width) ** 2)
        env = np.sin(np.pi * np.clip(t * rng.uniform(1.0, 1.4), 0, 1)) ** 0.7
        temps.append(_smooth(tpl * env, 3))
    return np.stack(temps)


def render(template, rng, n_frames):
    T, M = template.shape
    speed = rng.uniform(0.8, 1.25)
    src = np.clip(np.arange(n_frames) * speed - rng.integers(0, 8), 0, T - 1)
    lo = np.floor(src).astype(int)
    hi = np.minimum(lo + 1, T - 1)
    w = (src - lo)[:, None]
    speech = (1 - w) * template[lo] + w * template[hi]
    gain = np.exp(rng.normal(0.0, 1.2))                 # mic / distance
    tilt = np.exp(rng.normal(0.0, 0.6) * np.linspace(-1, 1, M))[None, :]
    noise = rng.gamma(2.0, 0.05, size=(n_frames, M))
    return (gain * tilt * (speech + 0.15) + noise).astype(np.float32)


def build_corpus(n_kw, n_per_kw, n_frames, n_mels, seed, templates=None):
    rng = np.random.default_rng(seed)
    if templates is None:
        templates = make_templates(n_kw, n_frames, n_mels, rng)
    X, y = [], []
    for k in range(n_kw):
        for _ in range(n_per_kw):
            X.append(render(templates[k], rng, n_frames))
            y.append(k)
    return np.stack(X), np.array(y, dtype=np.int64), templates
