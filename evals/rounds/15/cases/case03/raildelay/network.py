import numpy as np
import torch

N_STATIONS = 30


def build_network(seed=3):
    """Two lines crossing at a hub plus a few branch links. Returns a dense
    adjacency (N,N) with edge weights = share of trains that continue along it."""
    rng = np.random.default_rng(seed)
    A = np.zeros((N_STATIONS, N_STATIONS), np.float32)
    line_a = list(range(0, 16))
    line_b = [7] + list(range(16, 30))
    for line in (line_a, line_b):
        for u, v in zip(line[:-1], line[1:]):
            A[u, v] = A[v, u] = 1.0
    for _ in range(6):
        u, v = rng.choice(N_STATIONS, 2, replace=False)
        A[u, v] = A[v, u] = 0.5
    return A


def simulate(A, n, steps=3, seed=0):
    """x: (n,N,3) [delay_now/10, is_hub, buffer_min]; y: (n,N) delay after `steps` intervals (minutes)."""
    rng = np.random.default_rng(seed)
    N = A.shape[0]
    deg = A.sum(1)
    P = A / deg[:, None]
    hub = (deg >= 3).astype(np.float32)
    xs, ys = [], []
    for _ in range(n):
        d = np.zeros(N, np.float32)
        k = rng.integers(1, 4)
        d[rng.choice(N, k, replace=False)] = rng.uniform(5, 40, k)
        buffer = rng.uniform(0, 1.5, N).astype(np.float32)
        x = np.stack([d / 10.0, hub, buffer], 1)
        for _ in range(steps):
            incoming = P.T @ d
            d = np.maximum(0.5 * d + 0.7 * incoming - buffer, 0.0)
        xs.append(x)
        ys.append(d)
    return torch.tensor(np.stack(xs)), torch.tensor(np.stack(ys), dtype=torch.float32)
