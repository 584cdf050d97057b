"""Synthetic spinel supercells: 8 A sites + 16 B sites on a fixed neighbour graph."""
import numpy as np

ELEMENTS = ["Mg", "Zn", "Fe", "Co", "Ni", "Mn", "Al", "Cr"]
N_A, N_B = 8, 16


def site_graph(seed=42):
    rng = np.random.default_rng(seed)
    n = N_A + N_B
    pos = rng.random((n, 3))
    d = np.linalg.norm(pos[:, None] - pos[None], axis=-1)
    np.fill_diagonal(d, np.inf)
    nbr = np.argsort(d, axis=1)[:, :4]
    src = np.repeat(np.arange(n), 4)
    dst = nbr.reshape(-1)
    edges = np.unique(np.concatenate([np.stack([src, dst]), np.stack([dst, src])], 1), axis=1)
    return edges


def generate(n_crystals, seed):
    rng = np.random.default_rng(seed)
    pair = np.random.default_rng(7).normal(0, 1, (len(ELEMENTS), len(ELEMENTS)))
    pair = (pair + pair.T) / 2
    site_pref = np.random.default_rng(8).normal(0, 1, (len(ELEMENTS), 2))
    edges = site_graph()
    species, energy = [], []
    for _ in range(n_crystals):
        a, b = rng.choice(len(ELEMENTS), 2, replace=False)
        occ = np.array([a] * N_A + [b] * N_B)
        inversion = rng.uniform(0, 0.5)
        n_swap = int(round(inversion * N_A))
        ia = rng.choice(N_A, n_swap, replace=False)
        ib = N_A + rng.choice(N_B, n_swap, replace=False)
        occ[ia], occ[ib] = b, a
        kind = (np.arange(N_A + N_B) >= N_A).astype(int)
        e = pair[occ[edges[0]], occ[edges[1]]].sum() / 2 + site_pref[occ, kind].sum()
        species.append(occ)
        energy.append(e / (N_A + N_B))
    return np.array(species), np.array(energy, dtype=np.float32), edges
