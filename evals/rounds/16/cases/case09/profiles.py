import numpy as np
import torch
from torch.utils.data import Dataset

N_LAYERS = 24
CHANNELS = ["density", "hardness", "temperature", "grain_mm", "persistent"]


def simulate_pit(rng):
    depth = np.linspace(0, 1, N_LAYERS)
    density = 120 + 250 * depth + rng.normal(0, 20, N_LAYERS)
    hardness = 1 + 3 * depth + rng.normal(0, 0.3, N_LAYERS)
    t_surface = rng.uniform(-18, -2)
    temperature = t_surface * (1 - depth)
    grain = rng.uniform(0.5, 1.5, N_LAYERS)
    persistent = np.zeros(N_LAYERS)
    danger = 0.0
    # buried weak layer: soft, coarse, faceted under a stiffer slab
    if rng.random() < 0.6:
        k = rng.integers(4, 18)
        persistent[k] = 1
        grain[k] += rng.uniform(1.0, 2.5)
        hardness[k] = rng.uniform(0.5, 1.5)
        slab = hardness[:k].mean()
        danger += 1.2 + 0.8 * (slab - hardness[k]) - 0.05 * k
    new_snow = rng.exponential(0.3)
    density[:4] -= 60 * new_snow
    danger += 1.5 * new_snow + 0.04 * (t_surface + 10) * (1 if rng.random() < 0.5 else 0)
    x = np.stack([(density - 250) / 100, hardness - 2.5, temperature / 10,
                  grain - 1.2, persistent])
    return x.astype(np.float32), danger + rng.normal(0, 0.2)


class SnowpitSet(Dataset):
    def __init__(self, n, seed, cuts=None):
        rng = np.random.default_rng(seed)
        xs, scores = zip(*(simulate_pit(rng) for _ in range(n)))
        scores = np.array(scores)
        self.cuts = cuts if cuts is not None else np.quantile(scores, [0.3, 0.6, 0.85])
        self.x = torch.from_numpy(np.stack(xs))
        self.y = torch.from_numpy(np.digitize(scores, self.cuts)).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
