"""Sundial geometry helpers (shared by data generation and training)."""
import math

import numpy as np
import torch


def wrap_to_pi(a):
    """Wrap angle(s) to [-pi, pi). Works for floats, numpy arrays and tensors."""
    if isinstance(a, torch.Tensor):
        return torch.as_tensor(wrap_to_pi(a.detach().cpu().numpy()), dtype=a.dtype, device=a.device)
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def equation_of_time_min(day):
    b = 2 * np.pi * (day - 81) / 364.0
    return 9.87 * np.sin(2 * b) - 7.53 * np.cos(b) - 1.5 * np.sin(b)


def shadow_angle(clock_h, day, lat_deg, lon_offset_deg):
    """Angle of the shadow line from the noon line on a horizontal dial (radians)."""
    solar_h = clock_h + lon_offset_deg / 15.0 + equation_of_time_min(day) / 60.0
    hour_angle = np.radians(15.0 * (solar_h - 12.0))
    lat = np.radians(lat_deg)
    return wrap_to_pi(np.arctan2(np.sin(lat) * np.sin(hour_angle), np.cos(hour_angle)))


def sample(n, seed):
    rng = np.random.default_rng(seed)
    day = rng.integers(1, 366, n)
    clock = rng.uniform(5.0, 19.0, n)
    lat = rng.uniform(10, 65, n)
    lon = rng.uniform(-7.5, 7.5, n)
    theta = shadow_angle(clock, day, lat, lon)
    feats = np.column_stack([
        np.sin(2 * np.pi * day / 365), np.cos(2 * np.pi * day / 365),
        np.sin(4 * np.pi * day / 365), np.cos(4 * np.pi * day / 365),
        (clock - 12) / 4, lat / 45 - 1, lon / 7.5,
    ]).astype(np.float32)
    return feats, theta.astype(np.float32)


def deg(x):
    return x * 180.0 / math.pi
