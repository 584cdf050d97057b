from pathlib import Path

import numpy as np
import torch
from torch.utils.data import Dataset


class SensorCSV(Dataset):
    """Rows of sensor readings with a trailing integer `fault` column."""

    def __init__(self, path):
        table = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float32)
        self.features = torch.from_numpy(table[:, :-1].copy())
        self.faults = torch.from_numpy(table[:, -1].astype(np.int64))

    @property
    def n_features(self):
        return self.features.shape[1]

    def __len__(self):
        return len(self.faults)

    def __getitem__(self, i):
        return self.features[i], self.faults[i]


def load_splits(data_dir):
    data_dir = Path(data_dir)
    return {split: SensorCSV(data_dir / f"{split}.csv") for split in ("train", "val", "test")}
