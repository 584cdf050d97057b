"""Toy garnet cells: random positions, element mix, a hand-made conductivity rule."""
import numpy as np

ELEMENTS = ["Li", "La", "Zr", "O", "Al", "Ga", "Ta"]
# electronegativity, ionic radius (A), valence, mass/100
DESCRIPTORS = np.array([
    [0.98, 0.76, 1, 0.07],
    [1.10, 1.16, 3, 1.39],
    [1.33, 0.72, 4, 0.91],
    [3.44, 1.40, -2, 0.16],
    [1.61, 0.54, 3, 0.27],
    [1.81, 0.62, 3, 0.70],
    [1.50, 0.64, 5, 1.81],
], dtype=np.float32)
MAX_ATOMS = 16


def simulate(n, cutoff, seed):
    rng = np.random.default_rng(seed)
    species = np.full((n, MAX_ATOMS), -1, np.int64)
    adj = np.zeros((n, MAX_ATOMS, MAX_ATOMS), np.float32)
    y = np.zeros(n, np.float32)
    for i in range(n):
        k = rng.integers(10, MAX_ATOMS + 1)
        comp = rng.choice(7, size=k, p=[0.3, 0.12, 0.1, 0.33, 0.05, 0.05, 0.05])
        pos = rng.random((k, 3))
        d = np.linalg.norm(pos[:, None] - pos[None], axis=-1)
        a = ((d < cutoff) & (d > 0)).astype(np.float32)
        species[i, :k] = comp
        adj[i, :k, :k] = a
        li = comp == 0
        dop = np.isin(comp, [4, 5, 6])
        li_dop = (a[li][:, dop]).sum()            # Li next to a dopant: vacancy-assisted hops
        li_li = (a[li][:, li]).sum() / 2
        y[i] = (-4.0 + 1.5 * li.mean() + 0.35 * li_dop - 0.12 * li_li
                - 0.5 * (comp == 6).mean() + rng.normal(0, 0.05))
    return species, adj, y
