import lightning as L
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

CLASSES = ["benign", "scan", "dos", "bruteforce", "exfil"]
N_FEATURES = 18


def simulate_flows(n, seed):
    rng = np.random.default_rng(seed)
    # per class: log-scale centre of each feature; classes overlap a lot
    centres = np.random.default_rng(7).normal(0, 0.9, (len(CLASSES), N_FEATURES))
    scales = 10.0 ** np.random.default_rng(8).uniform(0, 5, N_FEATURES)    # raw magnitudes 1 .. 1e5
    y = rng.choice(len(CLASSES), size=n, p=[0.4, 0.15, 0.15, 0.15, 0.15])
    z = centres[y] + rng.normal(0, 1.0, (n, N_FEATURES))
    # interactions the model has to pick up
    z[:, 0] += 0.8 * np.sign(z[:, 1]) * (y == 3)
    z[:, 2] -= 0.8 * (z[:, 3] > 0) * (y == 4)
    raw = scales * np.exp(z)
    return raw.astype(np.float32), y.astype(np.int64)


class FlowDataModule(L.LightningDataModule):
    def __init__(self, n_train=6000, n_val=2000, batch_size=128, seed=0):
        super().__init__()
        self.n_train, self.n_val, self.batch_size, self.seed = n_train, n_val, batch_size, seed

    def setup(self, stage=None):
        x, y = simulate_flows(self.n_train + self.n_val, self.seed)
        x = torch.from_numpy(x)
        y = torch.from_numpy(y)
        self.train_set = TensorDataset(x[:self.n_train], y[:self.n_train])
        self.val_set = TensorDataset(x[self.n_train:], y[self.n_train:])

    def train_dataloader(self):
        g = torch.Generator().manual_seed(self.seed)
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True, generator=g)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=1024)
