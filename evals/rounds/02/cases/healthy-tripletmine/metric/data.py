import numpy as np
import torch
from torch.utils.data import Sampler


def make_products(n_products, views, dim=48, seed=0, world_seed=8):
    """Product identity in a 10-dim latent, lighting/pose nuisance in 6 dims, mixed non-linearly."""
    world = np.random.default_rng(world_seed)
    mix = world.normal(size=(16, dim)) / 4.0
    rng = np.random.default_rng(seed)
    ident = rng.normal(size=(n_products, 10))
    z_id = np.repeat(ident, views, axis=0) + 0.15 * rng.normal(size=(n_products * views, 10))
    z_nuis = 1.5 * rng.normal(size=(n_products * views, 6))
    z = np.concatenate([z_id, z_nuis], 1)
    x = np.tanh(z @ mix) + 0.3 * (z @ mix) ** 2 / 4
    labels = np.repeat(np.arange(n_products), views)
    return torch.from_numpy(x.astype(np.float32)), torch.from_numpy(labels)


class PKSampler(Sampler):
    """Yields index batches with P labels and K samples per label."""

    def __init__(self, labels, p, k, seed=0):
        self.by_label = {}
        for i, l in enumerate(labels.tolist()):
            self.by_label.setdefault(l, []).append(i)
        self.p, self.k = p, k
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.by_label) // self.p

    def __iter__(self):
        labels = self.rng.permutation(list(self.by_label))
        for b in range(len(self)):
            batch = []
            for l in labels[b * self.p:(b + 1) * self.p]:
                idx = self.by_label[int(l)]
                batch.extend(self.rng.choice(idx, self.k, replace=len(idx) < self.k).tolist())
            yield batch
