import numpy as np
import torch
from torch.utils.data import Dataset

CLASSES = ["normal", "obstruction", "worn_belt", "misaligned_rail"]
T = 256


def door_cycle(kind, rng):
    t = np.linspace(0, 1, T)
    inrush = 6.0 * np.exp(-t / 0.03)
    plateau = 2.0 * ((t > 0.05) & (t < 0.45)) + 1.8 * ((t > 0.55) & (t < 0.95))
    brake = -1.2 * np.exp(-((t - 0.47) ** 2) / 0.0004) - 1.0 * np.exp(-((t - 0.97) ** 2) / 0.0004)
    i = inrush + plateau + brake
    if kind == 1:    # obstruction: current spike where the leaf hits something
        c = rng.uniform(0.6, 0.9)
        i += rng.uniform(1.0, 2.5) * np.exp(-((t - c) ** 2) / 0.0008)
    elif kind == 2:  # worn belt: slip oscillation and a lower plateau
        i += 0.35 * np.sin(2 * np.pi * rng.uniform(25, 35) * t) * (t > 0.05) - 0.2
    elif kind == 3:  # misaligned rail: friction grows along the travel
        i += rng.uniform(0.4, 0.8) * ((t % 0.5) / 0.5) * (t > 0.05)
    gain = rng.uniform(0.85, 1.15)
    return (gain * i + rng.normal(0, 0.25, T)).astype(np.float32)


class DoorTraceDataset(Dataset):
    """Traces generated per class (a fleet export lists them per fault code)."""

    def __init__(self, per_class, seed):
        rng = np.random.default_rng(seed)
        self.x, self.y = [], []
        for k in range(len(CLASSES)):
            for _ in range(per_class):
                self.x.append(door_cycle(k, rng))
                self.y.append(k)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]).unsqueeze(0), self.y[i]
