from __future__ import annotations

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from trainer_pkg.config import DataConfig


def make_blobs(cfg: DataConfig, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian blobs, generated class by class (so the arrays are sorted by label)."""
    rng = np.random.default_rng(seed)
    centers = rng.normal(0.0, cfg.center_scale, size=(cfg.n_classes, cfg.n_features))
    xs, ys = [], []
    for label, center in enumerate(centers):
        xs.append(center + rng.normal(size=(cfg.n_per_class, cfg.n_features)))
        ys.append(np.full(cfg.n_per_class, label))
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys).astype(np.int64)


def build_loaders(cfg: DataConfig, batch_size: int, seed: int) -> tuple[DataLoader, DataLoader]:
    features, labels = make_blobs(cfg, seed)
    rng = np.random.default_rng(seed + 1)
    perm = rng.permutation(len(labels))
    n_val = int(round(len(labels) * cfg.val_fraction))
    val_idx, train_idx = perm[:n_val], perm[n_val:]

    x_train, y_train = torch.from_numpy(features[train_idx]), torch.from_numpy(labels[train_idx])
    x_val, y_val = torch.from_numpy(features[val_idx]), torch.from_numpy(labels[val_idx])

    # standardize with training statistics; validation gets the identical transform
    mean = x_train.mean(dim=0, keepdim=True)
    std = x_train.std(dim=0, keepdim=True).clamp_min(1e-6)
    x_train = (x_train - mean) / std
    x_val = (x_val - mean) / std

    train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=batch_size, shuffle=True)
    val_loader = DataLoader(TensorDataset(x_val, y_val), batch_size=256)
    return train_loader, val_loader
