import numpy as np
import torch
from torch.utils.data import Dataset


def cmvn_stats(feats):
    return feats.mean(axis=0), feats.std(axis=0) + 1e-5


def apply_cmvn(feats, stats=None):
    """Cepstral mean/variance normalisation.

    With stats=None the statistics come from the utterance itself.
    """
    mean, std = cmvn_stats(feats) if stats is None else stats
    return (feats - mean) / std


def splice(feats, context):
    """Stack +-context neighbouring frames (edge frames are repeated)."""
    T = feats.shape[0]
    padded = np.concatenate([np.repeat(feats[:1], context, 0), feats, np.repeat(feats[-1:], context, 0)])
    return np.concatenate([padded[k:k + T] for k in range(2 * context + 1)], axis=1)


def global_stats(utts):
    allf = np.concatenate([f for f, _ in utts])
    return cmvn_stats(allf)


class FrameDataset(Dataset):
    def __init__(self, utts, context=2, cmvn=True, stats=None):
        self.utts = utts
        self.context = context
        self.cmvn = cmvn
        self.stats = stats

    def __len__(self):
        return len(self.utts)

    def __getitem__(self, idx):
        feats, labels = self.utts[idx]
        if self.cmvn:
            feats = apply_cmvn(feats, self.stats)
        x = splice(feats, self.context).astype(np.float32)
        return torch.from_numpy(x), torch.from_numpy(labels)


def collate_frames(batch):
    xs, ys = zip(*batch)
    return torch.cat(xs), torch.cat(ys)
