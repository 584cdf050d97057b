import numpy as np
import torch


def simulate(n, seed):
    g = np.random.default_rng(seed)
    angle = g.uniform(28, 44, n)                                  # degrees
    speed = g.uniform(9, 14, n)
    height = g.uniform(1.9, 2.3, n)
    a = np.deg2rad(angle)
    t = np.linspace(0, 0.4, 8)
    vx = speed * np.cos(a)
    vy = speed * np.sin(a)
    wrist_y = height[:, None] - 0.6 + vy[:, None] * t * 0.25 + g.normal(0, 0.02, (n, 8))
    wrist_x = vx[:, None] * t * 0.25 + g.normal(0, 0.02, (n, 8))
    hip = g.normal(0, 0.1, (n, 8)) + 0.3 * np.sin(a)[:, None]
    X = np.concatenate([wrist_x, wrist_y, hip, speed[:, None] / 10, height[:, None]], 1)
    X = (X - X.mean(0)) / (X.std(0) + 1e-6)
    return torch.tensor(X, dtype=torch.float32), torch.tensor((angle - 36) / 5, dtype=torch.float32)
