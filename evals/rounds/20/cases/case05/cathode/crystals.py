"""Random small cells: Li / transition metal (Ni, Mn, Co) / O, with a toy pair potential."""
import numpy as np

SPECIES = ["Li", "Ni", "Mn", "Co", "O"]
CUTOFF = 3.0


def _pair_energy(a, b, r, eps):
    return eps[a, b] * ((1.6 / r) ** 6 - 2 * (1.6 / r) ** 3) * 0.2


def make_cells(n_cells, seed=0):
    rng = np.random.default_rng(seed)
    world = np.random.default_rng(3)
    eps = world.uniform(0.2, 1.5, (5, 5))
    eps = (eps + eps.T) / 2
    onsite = world.normal(0, 0.4, 5)
    cells = []
    for _ in range(n_cells):
        n = int(rng.integers(6, 14))
        z = rng.choice(5, n, p=[0.25, 0.1, 0.1, 0.1, 0.45])
        pos = rng.uniform(0, 5.0, (n, 3))
        src, dst, dist = [], [], []
        energy = onsite[z].sum()
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                r = np.linalg.norm(pos[i] - pos[j])
                if r < CUTOFF:
                    src.append(i); dst.append(j); dist.append(r)
                    if i < j:
                        energy += _pair_energy(z[i], z[j], max(r, 0.9), eps)
        cells.append(dict(z=z, src=np.array(src, dtype=np.int64), dst=np.array(dst, dtype=np.int64),
                          dist=np.array(dist, dtype=np.float32), y=np.float32(energy / n)))
    return cells
