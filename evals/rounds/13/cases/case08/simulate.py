"""Generate random-torque rollouts of a planar 2-link arm."""
import argparse
import os

import numpy as np

from utils import wrap_to_pi

DT = 0.05
SUBSTEPS = 10
L1, L2, M1, M2, G, DAMP = 1.0, 0.8, 1.0, 0.7, 9.81, 0.4


def accel(q, dq, tau):
    q1, q2 = q[..., 0], q[..., 1]
    c2 = np.cos(q2)
    m11 = (M1 + M2) * L1 ** 2 + M2 * L2 ** 2 + 2 * M2 * L1 * L2 * c2
    m12 = M2 * L2 ** 2 + M2 * L1 * L2 * c2
    m22 = M2 * L2 ** 2 * np.ones_like(q1)
    h = M2 * L1 * L2 * np.sin(q2)
    c1 = -h * dq[..., 1] * (2 * dq[..., 0] + dq[..., 1])
    c2v = h * dq[..., 0] ** 2
    g1 = (M1 + M2) * G * L1 * np.cos(q1) + M2 * G * L2 * np.cos(q1 + q2)
    g2 = M2 * G * L2 * np.cos(q1 + q2)
    r1 = tau[..., 0] - c1 - g1 - DAMP * dq[..., 0]
    r2 = tau[..., 1] - c2v - g2 - DAMP * dq[..., 1]
    det = m11 * m22 - m12 ** 2
    return np.stack([(m22 * r1 - m12 * r2) / det, (-m12 * r1 + m11 * r2) / det], -1)


def step(q, dq, tau):
    h = DT / SUBSTEPS
    for _ in range(SUBSTEPS):
        dq = dq + h * accel(q, dq, tau)
        q = q + h * dq
    return wrap_to_pi(q), dq


def rollouts(n_traj, horizon, seed):
    rng = np.random.default_rng(seed)
    q = rng.uniform(-np.pi, np.pi, (n_traj, 2))
    dq = rng.normal(0, 1.0, (n_traj, 2))
    states, torques, nexts = [], [], []
    tau = rng.normal(0, 8, (n_traj, 2))
    for _ in range(horizon):
        tau = 0.8 * tau + rng.normal(0, 4, (n_traj, 2))
        q2, dq2 = step(q, dq, tau)
        states.append(np.concatenate([q, dq], -1))
        torques.append(tau.copy())
        nexts.append(np.concatenate([q2, dq2], -1))
        q, dq = q2, np.clip(dq2, -12, 12)
    return (np.stack(states, 1).astype(np.float32), np.stack(torques, 1).astype(np.float32),
            np.stack(nexts, 1).astype(np.float32))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="data/trajectories.npz")
    ap.add_argument("--n-traj", type=int, default=200)
    ap.add_argument("--horizon", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
    s, t, n = rollouts(a.n_traj, a.horizon, a.seed)
    np.savez_compressed(a.out, states=s, torques=t, next_states=n)
    print(f"wrote {a.out}: {s.shape[0]} trajectories x {s.shape[1]} steps")
