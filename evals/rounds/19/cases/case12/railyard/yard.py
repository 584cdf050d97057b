"""Procedural classification yards: a hump lead fanning out into bowl tracks and departure tracks."""
import numpy as np
import torch


def make_yard(rng, n_tracks=40):
    # random tree from the hump + a few cross-over switches
    edges = []
    for t in range(1, n_tracks):
        edges.append((int(rng.integers(max(0, t - 6), t)), t))
    for _ in range(n_tracks // 5):
        a, b = rng.choice(n_tracks, 2, replace=False)
        edges.append((int(a), int(b)))
    src = [a for a, b in edges] + [b for a, b in edges]
    dst = [b for a, b in edges] + [a for a, b in edges]
    occ = rng.uniform(0, 1, n_tracks)            # fraction of track length occupied
    length = rng.uniform(0.3, 1.0, n_tracks)     # km
    crew = rng.integers(0, 2, n_tracks)          # switching crew assigned
    A = np.zeros((n_tracks, n_tracks))
    A[src, dst] = 1.0
    neigh_occ = A @ occ / np.maximum(A.sum(1), 1)
    dwell = 4 + 10 * occ * neigh_occ + 6 * np.maximum(neigh_occ - 0.5, 0) ** 2 * 8 - 3 * crew * occ + 2 * length
    dwell += rng.normal(0, 0.3, n_tracks)
    x = np.stack([occ, length, crew], 1).astype(np.float32)
    return {
        "x": torch.from_numpy(x),
        "edge_index": torch.tensor([src, dst]),
        "y": torch.from_numpy(dwell.astype(np.float32)),
    }


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    return [make_yard(rng, int(rng.integers(30, 50))) for _ in range(n)]
