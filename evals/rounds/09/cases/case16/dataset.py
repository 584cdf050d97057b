import numpy as np
import torch
from torch.utils.data import Dataset


class RSSIDataset(Dataset):
    """RSSI vectors in dBm and room ids.

    Pass the training statistics to standardise; without them the readings are
    mapped from the usual receiver range [-100, -20] dBm onto [0, 1].
    """

    def __init__(self, rssi, room, stats=None):
        if stats is not None:
            x = (rssi - stats["mean"]) / stats["std"]
        else:
            x = (np.clip(rssi, -100, -20) + 100) / 80.0
        self.x = torch.as_tensor(x, dtype=torch.float32)
        self.y = torch.as_tensor(room)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
