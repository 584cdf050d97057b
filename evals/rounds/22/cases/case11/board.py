"""Board geometry: point index = 8 * ring + position (0..7 clockwise, corners even)."""
import numpy as np

MILLS = []
for r in range(3):
    for k in (0, 2, 4, 6):
        MILLS.append((8 * r + k, 8 * r + k + 1, 8 * r + (k + 2) % 8))
for k in (1, 3, 5, 7):
    MILLS.append((k, 8 + k, 16 + k))

INCIDENCE = np.zeros((len(MILLS), 24), np.float32)
for m, pts in enumerate(MILLS):
    INCIDENCE[m, list(pts)] = 1.0


def rotate(points_idx, quarter_turns=1):
    r, k = np.divmod(points_idx, 8)
    return 8 * r + (k + 2 * quarter_turns) % 8


def swap_rings(points_idx):
    r, k = np.divmod(points_idx, 8)
    return 8 * (2 - r) + k


def symmetry_permutations():
    idx = np.arange(24)
    perms = []
    for q in range(4):
        perms.append(rotate(idx, q))
        perms.append(swap_rings(rotate(idx, q)))
    return np.stack(perms)
