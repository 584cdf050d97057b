"""Synthetic hourly buoy record.

Hs is the sum of a swell part (slow, several-day groups) and a wind-sea part that
responds to the local wind with a few hours of lag. Period follows Hs loosely.
"""
import math

import torch


def simulate(n_hours=8000, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_hours, dtype=torch.float32)

    # wind: AR(1) around a seasonal mean
    wind = torch.zeros(n_hours)
    eps = torch.randn(n_hours, generator=g)
    w = 8.0
    for i in range(n_hours):
        w = 0.97 * w + 0.03 * (8.0 + 3.0 * math.sin(2 * math.pi * i / 2000.0)) + 0.6 * eps[i].item()
        wind[i] = max(w, 0.0)

    # wind-sea: lagged, smoothed response to wind^2
    sea = torch.zeros(n_hours)
    s = 0.0
    for i in range(n_hours):
        drive = 0.012 * wind[max(i - 3, 0)].item() ** 2
        s = 0.85 * s + 0.15 * drive
        sea[i] = s

    # swell: groups with random phase drift
    phase = torch.cumsum(0.05 * torch.randn(n_hours, generator=g), 0)
    swell = 1.2 + 0.6 * torch.sin(2 * math.pi * t / 96.0 + phase) + 0.3 * torch.sin(2 * math.pi * t / 31.0)

    hs = (sea + swell.clamp(min=0.1)) * (1 + 0.03 * torch.randn(n_hours, generator=g))
    period = 4.0 + 2.2 * hs.sqrt() + 0.3 * torch.randn(n_hours, generator=g)
    return torch.stack([hs, period, wind], dim=1)  # [T, 3]
