import torch
from torch.utils.data import Dataset


class GaugeDataset(Dataset):
    def __init__(self, x, y, x_scaler=None, y_scaler=None):
        if x_scaler is not None:
            x = x_scaler.transform(x)
        if y_scaler is not None:
            y = y_scaler.transform(y)
        self.x = torch.from_numpy(x)
        self.y = torch.from_numpy(y)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
