import numpy as np
import torch


def simulate_fields(n_fields, rng, d=7):
    """Yield is driven by the worst cores of the field (nutrient-limited patches)."""
    w = rng.normal(size=d) / np.sqrt(d)
    bags, yields = [], []
    for _ in range(n_fields):
        n = rng.integers(3, 15)
        offset = rng.normal(0, 0.7, size=d)
        cores = (rng.normal(size=(n, d)) + offset).astype(np.float32)
        quality = np.tanh(cores @ w)
        weights = np.exp(-3.0 * quality)
        weights /= weights.sum()
        y = 5.0 + 2.0 * float(weights @ quality) + rng.normal(0, 0.05)
        bags.append(cores)
        yields.append(y)
    return bags, np.array(yields, dtype=np.float32)


def collate_bags(batch):
    cores, y = zip(*batch)
    n_max = max(len(c) for c in cores)
    d = cores[0].shape[1]
    x = torch.zeros(len(cores), n_max, d)
    mask = torch.zeros(len(cores), n_max, dtype=torch.bool)  # True = real core
    for i, c in enumerate(cores):
        x[i, : len(c)] = torch.from_numpy(c)
        mask[i, : len(c)] = True
    return x, mask, torch.tensor(y)


class BagDataset(torch.utils.data.Dataset):
    def __init__(self, bags, y):
        self.bags, self.y = bags, y

    def __len__(self):
        return len(self.bags)

    def __getitem__(self, i):
        return self.bags[i], float(self.y[i])
