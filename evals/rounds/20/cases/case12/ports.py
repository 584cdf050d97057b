import numpy as np
import torch

N_PORTS = 24


def timetable(seed=3):
    """Number of weekly sailings between each pair of ports (symmetric)."""
    rng = np.random.default_rng(seed)
    coords = rng.uniform(0, 1, (N_PORTS, 2))
    d = np.linalg.norm(coords[:, None] - coords[None], axis=-1)
    counts = rng.poisson(20 * np.exp(-d / 0.2))
    counts = np.triu(counts, 1)
    return counts + counts.T, coords


def pretrain_port_vectors(dim=8, steps=300, seed=0):
    """Factorize log(1 + sailings) into port vectors (a small GloVe-like fit)."""
    counts, _ = timetable()
    target = torch.log1p(torch.tensor(counts, dtype=torch.float32))
    g = torch.Generator().manual_seed(seed)
    V = torch.nn.Parameter(0.1 * torch.randn(N_PORTS, dim, generator=g))
    opt = torch.optim.Adam([V], lr=0.05)
    for _ in range(steps):
        loss = ((V @ V.T - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return V.detach()
