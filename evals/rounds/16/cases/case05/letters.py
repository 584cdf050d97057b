"""Articulatory-ish letter features used to initialise the letter embeddings.

columns: vowel, stop, fricative, nasal, liquid/glide (manner of articulation only)
"""
import string

import torch

_FEATS = {
    "a": [1, 0, 0, 0, 0], "e": [1, 0, 0, 0, 0], "i": [1, 0, 0, 0, 0],
    "o": [1, 0, 0, 0, 0], "u": [1, 0, 0, 0, 0], "y": [1, 0, 0, 0, 1],
    "b": [0, 1, 0, 0, 0], "p": [0, 1, 0, 0, 0], "d": [0, 1, 0, 0, 0],
    "t": [0, 1, 0, 0, 0], "g": [0, 1, 0, 0, 0], "k": [0, 1, 0, 0, 0],
    "c": [0, 1, 0, 0, 0], "q": [0, 1, 0, 0, 0], "f": [0, 0, 1, 0, 0],
    "v": [0, 0, 1, 0, 0], "s": [0, 0, 1, 0, 0], "z": [0, 0, 1, 0, 0],
    "h": [0, 0, 1, 0, 0], "x": [0, 0, 1, 0, 0], "j": [0, 0, 1, 0, 0],
    "m": [0, 0, 0, 1, 0], "n": [0, 0, 0, 1, 0], "l": [0, 0, 0, 0, 1],
    "r": [0, 0, 0, 0, 1], "w": [0, 0, 0, 0, 1],
}
ALPHABET = string.ascii_lowercase


def feature_table(dim):
    """(26, dim) float table: the features above, zero-padded to dim."""
    base = torch.tensor([_FEATS[c] for c in ALPHABET], dtype=torch.float32)
    table = torch.zeros(len(ALPHABET), dim)
    table[:, :base.shape[1]] = base
    return table
