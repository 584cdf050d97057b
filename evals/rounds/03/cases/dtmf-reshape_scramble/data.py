"""Synthetic keypad-tone recordings.

Every digit is a pair of sine tones (one from a low group, one from a high group),
like a telephone keypad. A recording is 2-5 digits with random durations, short
silences in between, random amplitude and additive noise. We work on log-magnitude
spectra of short frames.
"""
import numpy as np
import torch
from torch.utils.data import Dataset

FRAME = 32            # samples per frame
LOW = [0.10, 0.13, 0.16, 0.19]       # cycles / sample
HIGH = [0.26, 0.31, 0.36]
# digit -> (low, high); 10 digits drawn from the 4x3 grid
PAIRS = [(r, c) for r in range(4) for c in range(3)][:10]
BLANK = 0             # label 0 is reserved for the CTC blank, digit d has label d + 1
NUM_CLASSES = 11


def _tone(digit, n, rng):
    r, c = PAIRS[digit]
    t = np.arange(n)
    ph = rng.uniform(0, 2 * np.pi, size=2)
    return np.sin(2 * np.pi * LOW[r] * t + ph[0]) + np.sin(2 * np.pi * HIGH[c] * t + ph[1])


def synth_recording(rng):
    n_digits = rng.integers(2, 6)
    digits = rng.integers(0, 10, size=n_digits)
    chunks = [np.zeros(FRAME * rng.integers(1, 3))]
    for d in digits:
        chunks.append(_tone(d, FRAME * rng.integers(3, 7), rng) * rng.uniform(0.5, 1.5))
        chunks.append(np.zeros(FRAME * rng.integers(1, 4)))
    wave = np.concatenate(chunks)
    wave = wave + rng.normal(0, 0.6, size=wave.shape)
    return wave.astype(np.float32), digits


def frame_features(wave):
    frames = wave.reshape(-1, FRAME) * np.hanning(FRAME)
    mag = np.abs(np.fft.rfft(frames, axis=1))
    return np.log1p(mag).astype(np.float32)          # (n_frames, FRAME // 2 + 1)


class ToneDataset(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            wave, digits = synth_recording(rng)
            self.items.append((frame_features(wave), (digits + 1).astype(np.int64)))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        feats, labels = self.items[i]
        return torch.from_numpy(feats), torch.from_numpy(labels)


def pad_collate(batch):
    feats, labels = zip(*batch)
    feat_lens = torch.tensor([f.shape[0] for f in feats])
    label_lens = torch.tensor([len(l) for l in labels])
    x = torch.zeros(len(feats), int(feat_lens.max()), feats[0].shape[1])
    for i, f in enumerate(feats):
        x[i, : f.shape[0]] = f
    y = torch.cat(labels)            # concatenated targets, the format ctc_loss accepts
    return x, feat_lens, y, label_lens
