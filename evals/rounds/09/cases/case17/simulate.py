"""Generate heat-diffusion trajectories on a square plate."""
import argparse
import os

import numpy as np


def laplacian(u):
    return (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1) - 4 * u)


def run_sim(rng, size=16, steps=24, substeps=4):
    alpha = rng.uniform(0.08, 0.2)
    u = np.zeros((size, size))
    for _ in range(rng.integers(2, 5)):
        i, j = rng.integers(0, size, 2)
        u[i, j] += rng.uniform(5, 15)
    frames = []
    for t in range(steps):
        for _ in range(substeps):
            u = u + alpha * laplacian(u)
        u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0.0  # cold edges
        frames.append(u.copy())
    return np.stack(frames)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-sims", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    sims = np.stack([run_sim(rng) for _ in range(args.n_sims)]).astype(np.float16)
    os.makedirs("data", exist_ok=True)
    np.savez_compressed("data/plates.npz", frames=sims)
    print("wrote data/plates.npz", sims.shape)
