import numpy as np
import torch
from torch.utils.data import Dataset

SIZE = 12


def _defect_patterns(n_classes, rng):
    """One 6x6 motif per defect class (scratch, pit, bridge, ...)."""
    motifs = []
    for _ in range(n_classes):
        m = (rng.random((6, 6)) < 0.35).astype(np.float32)
        m[rng.integers(0, 6), :] = 1.0 if rng.random() < 0.5 else m[0, :]
        motifs.append(m)
    return np.stack(motifs)


class TileDataset(Dataset):
    def __init__(self, n, n_classes, noise, max_shift, seed, motif_seed=99):
        motifs = _defect_patterns(n_classes, np.random.default_rng(motif_seed))
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, n_classes, size=n)
        tiles = np.zeros((n, SIZE, SIZE), dtype=np.float32)
        for i, c in enumerate(self.labels):
            r0 = 3 + rng.integers(-max_shift, max_shift + 1)
            c0 = 3 + rng.integers(-max_shift, max_shift + 1)
            tiles[i, r0:r0 + 6, c0:c0 + 6] = motifs[c] * rng.uniform(0.6, 1.0)
        tiles += rng.normal(0.0, noise, size=tiles.shape).astype(np.float32)
        self.tiles = torch.from_numpy(tiles).unsqueeze(1)
        self.labels = torch.from_numpy(self.labels.astype(np.int64))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.tiles[idx], self.labels[idx]
