import numpy as np
import torch
from torch.utils.data import TensorDataset

N_USERS = 8
T = 64


def make_users(rng):
    return [dict(speed=rng.uniform(0.5, 2.0), tremor=rng.uniform(4, 12), tilt=rng.uniform(30, 70),
                 drift=rng.normal(0, 1, 2), amp=rng.uniform(0.02, 0.1)) for _ in range(N_USERS)]


def sample(users, n, rng):
    t = np.linspace(0, 0.6, T)
    X = np.zeros((n, T, 4), np.float32)
    y = rng.integers(0, N_USERS, n)
    for i in range(n):
        u = users[y[i]]
        speed = u["speed"] * rng.uniform(0.8, 1.2)
        height = 1.5 * np.exp(-speed * 6 * t) + 0.05 * rng.normal(size=T)
        wobble = u["amp"] * np.sin(2 * np.pi * u["tremor"] * t + rng.uniform(0, 6.3))
        X[i, :, 0] = height
        X[i, :, 1] = (u["tilt"] + rng.normal(0, 4)) / 90 + wobble
        X[i, :, 2:] = np.outer(t, u["drift"] + rng.normal(0, 0.5, 2)) + 0.02 * rng.normal(size=(T, 2))
    return X, y


def datasets(seed):
    rng = np.random.default_rng(seed)
    users = make_users(rng)
    Xtr, ytr = sample(users, 2400, rng)
    Xva, yva = sample(users, 600, rng)
    mk = lambda X, y: TensorDataset(torch.from_numpy(X), torch.from_numpy(y).long())
    return mk(Xtr, ytr), mk(Xva, yva)
