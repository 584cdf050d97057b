"""Synthetic garnet-like clusters.

Species on sites: Ca, Mg, Fe, Mn (A site), Al, Cr, Fe3 (B site), Si, O.
The target is a sum of pair terms over bonded species plus small on-site terms,
so it depends on which species sit next to each other, not only on the
composition.
"""
import numpy as np

SPECIES = ["Ca", "Mg", "Fe", "Mn", "Al", "Cr", "Fe3", "Si", "O"]
A_SITE = [0, 1, 2, 3]
B_SITE = [4, 5, 6]


def random_crystal(rng, n_cells=2):
    # a jittered cubic grid stands in for the real garnet cell
    side = 3 * n_cells
    pos = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3).astype(float)
    pos = pos[rng.permutation(len(pos))[: rng.integers(24, 40)]]
    pos += rng.normal(0, 0.08, pos.shape)
    n = len(pos)
    kind = rng.choice(4, size=n, p=[0.25, 0.2, 0.15, 0.4])
    species = np.empty(n, dtype=np.int64)
    species[kind == 0] = rng.choice(A_SITE, size=(kind == 0).sum())
    species[kind == 1] = rng.choice(B_SITE, size=(kind == 1).sum())
    species[kind == 2] = 7
    species[kind == 3] = 8
    d = np.linalg.norm(pos[:, None] - pos[None], axis=-1)
    src, dst = np.nonzero((d < 1.25) & (d > 0))
    return species, src, dst, d[src, dst]


def pair_table(rng):
    t = rng.normal(0, 1.0, (len(SPECIES), len(SPECIES)))
    return (t + t.T) / 2


def crystal_property(species, src, dst, dist, table, onsite):
    pair = table[species[src], species[dst]] * np.exp(-(dist - 1.0) * 2.0)
    e = 0.5 * pair.sum() + onsite[species].sum()
    return e / len(species)


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    table = pair_table(np.random.default_rng(7))
    onsite = np.random.default_rng(8).normal(0, 0.3, len(SPECIES))
    out = []
    for _ in range(n):
        sp, src, dst, dist = random_crystal(rng)
        y = crystal_property(sp, src, dst, dist, table, onsite)
        out.append({"species": sp, "src": src, "dst": dst, "dist": dist, "y": y})
    return out
