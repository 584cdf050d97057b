"""Synthesise utterances of MFCC-like frames.

Every phone has a prototype cepstral vector; an utterance is a random phone
sequence with random durations, jittered frame by frame. Each utterance then
passes through its own channel: an additive cepstral offset (convolutional
channel effects are additive in the cepstral domain) and a per-coefficient gain.
"""
import numpy as np


def make_utterances(n_utts, n_phones, n_ceps, rng, protos):
    utts = []
    for _ in range(n_utts):
        n_segs = rng.integers(6, 14)
        phones = rng.integers(0, n_phones, size=n_segs)
        durs = rng.integers(3, 9, size=n_segs)
        labels = np.repeat(phones, durs)
        frames = protos[labels] + 0.55 * rng.standard_normal((len(labels), n_ceps))
        offset = 2.5 * rng.standard_normal(n_ceps)
        gain = np.exp(0.4 * rng.standard_normal(n_ceps))
        feats = frames * gain + offset
        utts.append((feats.astype(np.float32), labels.astype(np.int64)))
    return utts


def build(cfg):
    rng = np.random.default_rng(cfg["data_seed"])
    protos = rng.standard_normal((cfg["n_phones"], cfg["n_ceps"]))
    train = make_utterances(cfg["n_train_utts"], cfg["n_phones"], cfg["n_ceps"], rng, protos)
    val = make_utterances(cfg["n_val_utts"], cfg["n_phones"], cfg["n_ceps"], rng, protos)
    return train, val
