import numpy as np
import torch
import torch.nn as nn


def throws(n, seed):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, 40)
    spin = rng.uniform(1.5, 3.0, size=(n, 1))
    arm = rng.uniform(0.6, 0.9, size=(n, 1))
    acc = arm * spin ** 2 * np.sin(np.pi * t) ** 2 + 0.2 * rng.standard_normal((n, 40))
    gyro = spin * t + 0.2 * rng.standard_normal((n, 40))
    x = np.concatenate([acc, gyro], 1).astype(np.float32)
    force = (400 * arm * spin ** 2 + 20 * rng.standard_normal((n, 1))).astype(np.float32)
    return x, force[:, 0]


class ForceMLP(nn.Module):
    def __init__(self, p_drop=0.5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(80, 128), nn.ReLU(), nn.Dropout(p_drop),
                                 nn.Linear(128, 128), nn.ReLU(), nn.Dropout(p_drop), nn.Linear(128, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)
