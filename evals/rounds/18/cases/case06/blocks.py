import numpy as np

S = 12


def simulate_blocks(n, seed):
    rng = np.random.default_rng(seed)
    g = np.stack(np.meshgrid(*[np.arange(S)] * 3, indexing="ij"), -1).astype(np.float32)
    X = rng.gamma(1.5, 0.3, (n, S, S, S)).astype(np.float32)  # host rock background grade
    y = (rng.random(n) < 0.5).astype(np.float32)
    for i in range(n):
        # every block has some disseminated veins; ore blocks also have a coherent lens
        for _ in range(rng.integers(2, 5)):
            c = rng.uniform(0, S, 3)
            X[i] += 0.8 * np.exp(-((g - c) ** 2).sum(-1) / 1.0)
        if y[i]:
            c = rng.uniform(3, S - 3, 3)
            radii = rng.uniform(1.5, 3.0, 3)
            X[i] += 0.6 * np.exp(-(((g - c) / radii) ** 2).sum(-1))
    return np.log1p(X)[:, None], y
