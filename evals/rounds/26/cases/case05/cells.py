"""Random SiO2-like cells with a bond-valence style energy."""
import numpy as np

BONDS = ("short", "long")


def random_cells(n_cells, n_atoms, seed=0):
    rng = np.random.default_rng(seed)
    box = 4.2
    pos = rng.uniform(0, box, (n_cells, n_atoms, 3))
    is_si = (rng.random((n_cells, n_atoms)) < 1 / 3).astype(np.float32)
    diff = pos[:, :, None, :] - pos[:, None, :, :]
    diff -= box * np.round(diff / box)                     # periodic cell
    dist = np.linalg.norm(diff, axis=-1) + np.eye(n_atoms) * 99
    short = (dist < 1.9).astype(np.float32)
    long_ = ((dist >= 1.9) & (dist < 2.9)).astype(np.float32)

    hetero = is_si[:, :, None] * (1 - is_si[:, None, :]) + (1 - is_si[:, :, None]) * is_si[:, None, :]
    si_o = (short * hetero).sum(-1)                        # Si-O bonds per atom
    like = (short * (1 - hetero)).sum(-1)                  # Si-Si / O-O clashes
    target_coord = np.where(is_si > 0, 4.0, 2.0)
    energy = (0.3 * ((si_o - target_coord) ** 2).sum(-1) + 0.8 * like.sum(-1)
              - 0.05 * (long_ * hetero).sum((-1, -2)))
    energy += rng.normal(0, 0.3, n_cells)

    feats = np.stack([is_si, 1 - is_si], -1).astype(np.float32)
    adj = np.stack([short, long_], 1)                      # [cell, bond, i, j]
    return feats, adj.astype(np.float32), energy.astype(np.float32)
