import numpy as np


def vdp_rhs(x, mu):
    q, p = x[..., 0], x[..., 1]
    return np.stack([p, mu * (1 - q ** 2) * p - q], axis=-1)


def rk4(x, dt, mu):
    k1 = vdp_rhs(x, mu)
    k2 = vdp_rhs(x + 0.5 * dt * k1, mu)
    k3 = vdp_rhs(x + 0.5 * dt * k2, mu)
    k4 = vdp_rhs(x + dt * k3, mu)
    return x + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


def simulate(n_traj, length, dt, mu, noise, rng):
    x = rng.uniform(-3, 3, size=(n_traj, 2))
    out = np.empty((n_traj, length, 2))
    for t in range(length):
        out[:, t] = x
        x = rk4(x, dt, mu)
    out += rng.normal(0, noise, size=out.shape)
    return out.astype(np.float32)


def make_windows(trajs, history, horizon):
    """Slice each trajectory into (delay window, future states) pairs.

    inputs:  states t-history+1 .. t          -> (history, 2)
    targets: states t+1 .. t+horizon          -> (horizon, 2)
    """
    xs, ys = [], []
    for traj in trajs:
        for s in range(len(traj) - history - horizon + 1):
            end = s + history
            xs.append(traj[s:end])
            ys.append(traj[end - 1:end - 1 + horizon])
    return np.stack(xs), np.stack(ys)
