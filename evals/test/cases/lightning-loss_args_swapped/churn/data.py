from pathlib import Path

import lightning as L
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

FEATURES = [
    "tenure_months",
    "monthly_spend",
    "support_tickets",
    "late_payments",
    "logins_per_week",
    "discount_pct",
    "contract_len",
    "devices",
    "avg_session_min",
    "plan_changes",
    "referrals",
    "age_of_account",
]


def simulate_accounts(n: int, seed: int = 7):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(FEATURES))).astype(np.float32)
    score = (
        -1.4 * x[:, 0]
        + 0.9 * x[:, 1]
        + 1.2 * x[:, 2] * (x[:, 3] > 0)
        - 1.1 * np.tanh(2.0 * x[:, 4])
        + 0.8 * x[:, 5] * x[:, 6]
        - 0.6 * x[:, 9] ** 2
        + 0.5
    )
    score += 0.3 * rng.normal(size=n)
    y = (score > 0).astype(np.float32)
    return x, y


class ChurnDataModule(L.LightningDataModule):
    def __init__(self, data_dir: str = "data", batch_size: int = 128, n_accounts: int = 3000):
        super().__init__()
        self.data_dir = Path(data_dir)
        self.batch_size = batch_size
        self.n_accounts = n_accounts

    def prepare_data(self):
        path = self.data_dir / "accounts.npz"
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            x, y = simulate_accounts(self.n_accounts)
            np.savez(path, x=x, y=y)

    def setup(self, stage=None):
        blob = np.load(self.data_dir / "accounts.npz")
        x, y = torch.from_numpy(blob["x"]), torch.from_numpy(blob["y"])
        n_val = len(x) // 5
        mean = x[n_val:].mean(0)
        std = x[n_val:].std(0)
        x = (x - mean) / std
        self.train_set = TensorDataset(x[n_val:], y[n_val:])
        self.val_set = TensorDataset(x[:n_val], y[:n_val])

    def train_dataloader(self):
        return DataLoader(self.train_set, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return DataLoader(self.val_set, batch_size=256)
