import numpy as np
import torch
import torch.nn as nn

DIM, CLASSES = 24, 10


def make_domain(seed_mix, n, seed):
    """Same latent classes, different sensor mixing per domain."""
    base = np.random.default_rng(1234)
    centers = base.normal(scale=1.6, size=(CLASSES, 8))
    mix = np.random.default_rng(seed_mix).normal(size=(8, DIM)) / np.sqrt(8)
    rng = np.random.default_rng(seed)
    y = rng.integers(0, CLASSES, n)
    z = centers[y] + rng.normal(size=(n, 8))
    x = np.tanh(z @ mix) + 0.05 * rng.normal(size=(n, DIM))
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y)


class BaseMLP(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(DIM, hidden), nn.Linear(hidden, hidden),
                                     nn.Linear(hidden, hidden)])
        self.head = nn.Linear(hidden, CLASSES)

    def features(self, x):
        for lin in self.layers:
            x = torch.relu(lin(x))
        return x

    def forward(self, x):
        return self.head(self.features(x))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()
