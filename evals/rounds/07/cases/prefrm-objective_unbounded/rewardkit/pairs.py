import numpy as np
import torch


def hidden_reward(x, w1, w2):
    return x @ w1 + 0.5 * np.sin(x @ w2) - 0.1 * (x ** 2).sum(-1)


def sample_pairs(n, dim, temperature, rng, w1, w2):
    a = rng.normal(size=(n, dim)).astype(np.float32)
    b = rng.normal(size=(n, dim)).astype(np.float32)
    ra, rb = hidden_reward(a, w1, w2), hidden_reward(b, w1, w2)
    p_a = 1.0 / (1.0 + np.exp(-(ra - rb) / temperature))
    a_wins = rng.random(n) < p_a
    chosen = np.where(a_wins[:, None], a, b)
    rejected = np.where(a_wins[:, None], b, a)
    return torch.from_numpy(chosen), torch.from_numpy(rejected)


def make_splits(cfg, seed=99):
    rng = np.random.default_rng(seed)
    d = cfg["dim"]
    w1 = rng.normal(size=d) / np.sqrt(d)
    w2 = rng.normal(size=(d,)) / np.sqrt(d) * 2
    train = sample_pairs(cfg["n_pairs"], d, cfg["annotator_temperature"], rng, w1, w2)
    test = sample_pairs(cfg["n_test"], d, cfg["annotator_temperature"], rng, w1, w2)
    return train, test
