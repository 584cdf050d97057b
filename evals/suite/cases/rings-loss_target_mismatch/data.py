"""Synthetic two-ring data: class 0 lies on the inner ring, class 1 on the outer ring."""

import math

import torch


def make_rings(n: int, noise: float = 0.2, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Return features [n, 2] and float 0/1 targets [n, 1]."""
    gen = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 2, (n,), generator=gen)
    radius = 1.0 + labels.float() + noise * torch.randn(n, generator=gen)
    angle = 2 * math.pi * torch.rand(n, generator=gen)
    features = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    targets = labels.float().unsqueeze(1)  # [n, 1], same shape as the logits
    return features, targets


def split(features: torch.Tensor, targets: torch.Tensor, val_fraction: float = 0.25, seed: int = 0):
    """One permutation decides both splits, so no row lands in train and validation."""
    gen = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(features), generator=gen)
    n_val = int(len(features) * val_fraction)
    val_idx, train_idx = order[:n_val], order[n_val:]
    return (features[train_idx], targets[train_idx]), (features[val_idx], targets[val_idx])
