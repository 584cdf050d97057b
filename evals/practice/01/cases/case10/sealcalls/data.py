import numpy as np
import torch
from torch.utils.data import Dataset


def clip_energy(clip):
    """Mean of the 90th-percentile band energy over time (robust loudness)."""
    return float(np.percentile(clip, 90, axis=1).mean())


def trim_silence(clips, floor):
    kept = [c for c in clips if clip_energy(c) > floor]
    return kept


class CallDataset(Dataset):
    def __init__(self, clips, labels):
        self.clips = clips
        self.labels = labels

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        x = torch.from_numpy(self.clips[i])
        # per-clip standardisation: hydrophone gain differs between deployments
        x = (x - x.mean()) / (x.std() + 1e-5)
        return x, self.labels[i]


def pad_collate(batch):
    xs, ys = zip(*batch)
    T = max(x.shape[0] for x in xs)
    out = torch.zeros(len(xs), T, xs[0].shape[1])
    lengths = torch.tensor([x.shape[0] for x in xs])
    for i, x in enumerate(xs):
        out[i, : x.shape[0]] = x
    return out, lengths, torch.tensor(ys, dtype=torch.long)


def build_datasets(cfg, clips, labels, rng):
    clips = trim_silence(clips, cfg.energy_floor)
    n = len(clips)
    order = rng.permutation(n)
    n_val = int(n * cfg.val_fraction)
    va, tr = order[:n_val], order[n_val:]
    take = lambda idx, seq: [seq[i] for i in idx]
    return (CallDataset(take(tr, clips), take(tr, labels)),
            CallDataset(take(va, clips), take(va, labels)))
