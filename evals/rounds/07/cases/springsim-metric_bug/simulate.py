"""Generate damped spring-mass trajectories with RK4."""
import argparse
import os

import numpy as np


def deriv(s, k, c):
    x, v = s[..., 0], s[..., 1]
    return np.stack([v, -k * x - c * v], -1)


def rk4(s, k, c, dt):
    a = deriv(s, k, c)
    b = deriv(s + 0.5 * dt * a, k, c)
    d = deriv(s + 0.5 * dt * b, k, c)
    e = deriv(s + dt * d, k, c)
    return s + dt / 6 * (a + 2 * b + 2 * d + e)


def simulate(n, steps, dt, rng):
    k = rng.uniform(1.0, 4.0, n)
    c = rng.uniform(0.0, 0.4, n)
    s = np.stack([rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)], -1)
    traj = [s]
    for _ in range(steps):
        s = rk4(s, k, c, dt)
        traj.append(s)
    return np.stack(traj, 1).astype(np.float32), np.stack([k, c], -1).astype(np.float32)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="data/trajectories.npz")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--dt", type=float, default=0.1)
    args = ap.parse_args()
    rng = np.random.default_rng(42)
    tr, ptr = simulate(400, args.steps, args.dt, rng)
    te, pte = simulate(100, args.steps, args.dt, rng)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    np.savez_compressed(args.out, train=tr, train_params=ptr, test=te, test_params=pte, dt=args.dt)
    print("wrote", args.out, tr.shape, te.shape)
