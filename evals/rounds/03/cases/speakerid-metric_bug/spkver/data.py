"""Synthetic filterbank 'utterances'.

A frame is: phone template (shared by all speakers) + speaker envelope
+ per-utterance channel offset + noise. Each utterance is a random phone
sequence, so a speaker's identity lives in the envelope only.
"""
import numpy as np

N_BINS = 24
N_FRAMES = 40
N_PHONES = 16


def _smooth_bumps(rng, n_bumps, scale):
    f = np.arange(N_BINS)
    out = np.zeros(N_BINS)
    for _ in range(n_bumps):
        out += rng.normal(0, scale) * np.exp(-((f - rng.uniform(0, N_BINS)) / rng.uniform(1.5, 4)) ** 2)
    return out


class Corpus:
    def __init__(self, seed=0):
        rng = np.random.default_rng(seed)
        self.phones = np.stack([_smooth_bumps(rng, 4, 1.5) for _ in range(N_PHONES)])
        self.rng = rng

    def new_speakers(self, n):
        return np.stack([_smooth_bumps(self.rng, 3, 0.8) + np.linspace(-1, 1, N_BINS) * self.rng.normal(0, 0.3)
                         for _ in range(n)])

    def utterance(self, envelope):
        rng = self.rng
        frames, t = [], 0
        while t < N_FRAMES:
            d = rng.integers(3, 7)
            frames.append(np.repeat(self.phones[rng.integers(N_PHONES)][None], d, axis=0))
            t += d
        x = np.concatenate(frames)[:N_FRAMES] + envelope
        x = x + _smooth_bumps(rng, 2, 0.3) + rng.normal(0, 0.6, x.shape)
        return x.T.astype(np.float32)             # (bins, frames)

    def dataset(self, envelopes, utts_per_speaker):
        xs, ys = [], []
        for s, env in enumerate(envelopes):
            for _ in range(utts_per_speaker):
                xs.append(self.utterance(env))
                ys.append(s)
        return np.stack(xs), np.array(ys, dtype=np.int64)
