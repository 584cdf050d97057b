import math

import lightning as L
import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

ACTIVITIES = ["walking", "running", "stairs_up", "stairs_down", "sitting", "cycling"]

# (base frequency in Hz, amplitude per axis, harmonic weight)
_PROFILES = {
    "walking": (1.8, (1.0, 0.5, 0.3), 0.3),
    "running": (2.8, (2.2, 0.9, 0.6), 0.4),
    "stairs_up": (1.5, (1.1, 0.8, 0.7), 0.6),
    "stairs_down": (1.6, (1.3, 0.6, 0.9), 0.2),
    "sitting": (0.2, (0.05, 0.05, 0.05), 0.0),
    "cycling": (1.2, (0.4, 1.2, 0.3), 0.5),
}


def simulate(n_per_class: int, window: int = 64, rate: float = 20.0, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(window) / rate
    signals, labels = [], []
    for label, name in enumerate(ACTIVITIES):
        freq, amps, harm = _PROFILES[name]
        for _ in range(n_per_class):
            f = freq * (1 + 0.1 * torch.randn(1, generator=g))
            phase = 2 * math.pi * torch.rand(3, 1, generator=g)
            amp = torch.tensor(amps).unsqueeze(1) * (1 + 0.15 * torch.randn(3, 1, generator=g))
            wave = amp * (torch.sin(2 * math.pi * f * t + phase) + harm * torch.sin(4 * math.pi * f * t + 2 * phase))
            gravity = torch.tensor([0.0, 0.0, 1.0]).unsqueeze(1)
            noise = 0.2 * torch.randn(3, window, generator=g)
            signals.append(wave + gravity + noise)
            labels.append(label)
    return torch.stack(signals), torch.tensor(labels)


class HARDataModule(L.LightningDataModule):
    def __init__(self, batch_size: int = 64, n_per_class: int = 250, num_workers: int = 0):
        super().__init__()
        self.save_hyperparameters()

    def setup(self, stage=None):
        x, y = simulate(self.hparams.n_per_class)
        full = TensorDataset(x, y)
        n_val = len(full) // 5
        self.train_set, self.val_set = random_split(
            full, [len(full) - n_val, n_val], generator=torch.Generator().manual_seed(42)
        )

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.hparams.batch_size, shuffle=True,
                          num_workers=self.hparams.num_workers, drop_last=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=256, num_workers=self.hparams.num_workers)
