"""Simulate queue snapshots and store them as prepared/snapshots.npz."""
import os

import numpy as np

from network import N_STATIONS, edges

WEIGHT = {"uphill": 0.9, "downhill": 0.3, "transfer": 0.6}


def simulate(n, g):
    arrivals = g.gamma(2.0, 1.0, (n, N_STATIONS))
    headway = g.uniform(4, 12, (n, 1))
    spill = np.zeros_like(arrivals)
    for s, d, rel in edges():
        spill[:, d] += WEIGHT[rel] * arrivals[:, s]
    wait = 0.25 * headway * (1 + 0.4 * arrivals + 0.8 * np.tanh(spill - 2.0))
    wait += g.normal(0, 0.2, wait.shape)
    feats = np.stack([arrivals, np.repeat(headway / 10, N_STATIONS, 1)], -1)
    return feats.astype(np.float32), wait.astype(np.float32)


def main():
    g = np.random.default_rng(2024)
    os.makedirs("prepared", exist_ok=True)
    xtr, ytr = simulate(3000, g)
    xva, yva = simulate(600, g)
    np.savez("prepared/snapshots.npz", xtr=xtr, ytr=ytr, xva=xva, yva=yva)
    print("wrote prepared/snapshots.npz", xtr.shape)


if __name__ == "__main__":
    main()
