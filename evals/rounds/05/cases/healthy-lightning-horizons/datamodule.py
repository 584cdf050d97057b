import lightning as L
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset


def demand_series(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    level = 200 + 0.05 * t
    season = 40 * np.sin(2 * np.pi * t / 24) + 15 * np.sin(2 * np.pi * t / 168)
    return (level + season + rng.normal(0, 6, n)).astype(np.float32)


class StandardScaler:
    def fit(self, x):
        self.mean, self.std = float(x.mean()), float(x.std())
        return self

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse(self, x):
        return x * self.std + self.mean


def windows(series, context, horizon):
    idx = np.arange(len(series) - context - horizon + 1)
    X = np.stack([series[i:i + context] for i in idx])
    Y = np.stack([series[i + context:i + context + horizon] for i in idx])
    return torch.from_numpy(X), torch.from_numpy(Y)


class DemandDataModule(L.LightningDataModule):
    def __init__(self, n=3000, context=48, horizon=6, batch_size=64, seed=0):
        super().__init__()
        self.save_hyperparameters()
        self.scaler = None

    def prepare_data(self):
        pass    # synthetic, nothing to download

    def setup(self, stage=None):
        hp = self.hparams
        series = demand_series(hp.n, hp.seed)
        cut_val, cut_test = int(hp.n * 0.7), int(hp.n * 0.85)
        if stage in ("fit", None):
            train_raw = series[:cut_val]
            self.scaler = StandardScaler().fit(train_raw)          # training window only
            s = self.scaler.transform(series)
            self.train_set = TensorDataset(*windows(s[:cut_val], hp.context, hp.horizon))
            self.val_set = TensorDataset(*windows(s[cut_val - hp.context:cut_test], hp.context, hp.horizon))
        if stage in ("test", None):
            s = self.scaler.transform(series)
            self.test_set = TensorDataset(*windows(s[cut_test - hp.context:], hp.context, hp.horizon))

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.hparams.batch_size, shuffle=True,
                          generator=torch.Generator().manual_seed(self.hparams.seed))

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=512)
