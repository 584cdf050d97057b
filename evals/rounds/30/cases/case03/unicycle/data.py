import numpy as np
import torch
from torch.utils.data import Dataset

STATES = ["steady", "wobble_left", "wobble_right", "bailing"]


def simulate(n_per_class, seed):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 2, 50)
    xs, ys = [], []
    for c in range(len(STATES)):
        for _ in range(n_per_class):
            w = 0.3 * rng.standard_normal((6, 50))
            freq = rng.uniform(1.5, 3.0)
            if c == 1:
                w[0] += 1.2 * np.sin(2 * np.pi * freq * t)
            elif c == 2:
                w[0] -= 1.2 * np.sin(2 * np.pi * freq * t)
            elif c == 3:
                w[1] += np.linspace(0, 2.5, 50) * rng.uniform(0.7, 1.3)
            xs.append(w)
            ys.append(c)
    # recordings come out of the simulator grouped by rider state
    return np.stack(xs).astype(np.float32), np.array(ys)


class IMUWindows(Dataset):
    def __init__(self, x, y):
        self.x = torch.from_numpy(x)
        self.y = torch.from_numpy(y).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
