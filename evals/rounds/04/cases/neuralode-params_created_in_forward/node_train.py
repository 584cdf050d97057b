"""Neural ODE on pendulum trajectories, Euler integration."""
import argparse
import json
import math
import time

import torch
import torch.nn as nn


def pendulum_field(t, s):
    theta, omega = s[..., 0], s[..., 1]
    dtheta = omega
    domega = -1.5 * torch.sin(theta) - 0.15 * omega + 0.4 * math.cos(0.8 * t)
    return torch.stack([dtheta, domega], -1)


def rk4_reference(s0, n_points, dt, fine=20):
    out, s, t = [s0], s0, 0.0
    h = dt / fine
    for _ in range(n_points - 1):
        for _ in range(fine):
            k1 = pendulum_field(t, s)
            k2 = pendulum_field(t + h / 2, s + h / 2 * k1)
            k3 = pendulum_field(t + h / 2, s + h / 2 * k2)
            k4 = pendulum_field(t + h, s + h * k3)
            s = s + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            t += h
        out.append(s)
    return torch.stack(out, 1)  # (B, T, 2)


class VectorField(nn.Module):
    """f(t, x) -> dx/dt. The MLP is created lazily so the state size comes from the data."""

    def __init__(self, hidden, time_dependent=True):
        super().__init__()
        self.hidden = hidden
        self.time_dependent = time_dependent
        self.net = None

    def _build(self, in_dim, out_dim):
        return nn.Sequential(nn.Linear(in_dim, self.hidden), nn.Tanh(),
                             nn.Linear(self.hidden, self.hidden), nn.Tanh(),
                             nn.Linear(self.hidden, out_dim))

    def forward(self, t, x):
        inp = x
        if self.time_dependent:
            tt = torch.full_like(x[..., :1], float(t))
            inp = torch.cat([torch.cos(0.8 * tt), torch.sin(0.8 * tt), x], -1)
        if self.net is None or self.net[0].in_features != x.shape[-1]:
            self.net = self._build(inp.shape[-1], x.shape[-1])
        return self.net(inp)


def odeint_euler(func, x0, n_points, dt, substeps):
    xs, x, t = [x0], x0, 0.0
    h = dt / substeps
    for _ in range(n_points - 1):
        for _ in range(substeps):
            x = x + h * func(t, x)
            t += h
        xs.append(x)
    return torch.stack(xs, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="node.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed

    g = torch.Generator().manual_seed(cfg["data_seed"])
    s0 = torch.stack([torch.empty(cfg["n_traj"] + cfg["n_val"]).uniform_(-2.0, 2.0, generator=g),
                      torch.empty(cfg["n_traj"] + cfg["n_val"]).uniform_(-1.0, 1.0, generator=g)], -1)
    traj = rk4_reference(s0, cfg["n_points"], cfg["dt"])
    train, val = traj[:cfg["n_traj"]], traj[cfg["n_traj"]:]

    torch.manual_seed(cfg["seed"])
    func = VectorField(cfg["hidden"], cfg["time_dependent"])
    func(0.0, train[:1, 0])  # materialize the lazy MLP before building the optimizer
    opt = torch.optim.Adam(func.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, cfg["iters"])

    t0 = time.time()
    for it in range(1, cfg["iters"] + 1):
        idx = torch.randint(0, cfg["n_traj"], (cfg["batch"],))
        batch = train[idx]
        pred = odeint_euler(func, batch[:, 0], cfg["n_points"], cfg["dt"], cfg["substeps"])
        loss = (pred - batch).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            with torch.no_grad():
                vp = odeint_euler(func, val[:, 0], cfg["n_points"], cfg["dt"], cfg["substeps"])
                vmse = (vp - val).pow(2).mean().item()
            print(f"iter {it:4d} loss {loss.item():.5f} val_traj_mse {vmse:.5f} ({time.time() - t0:.1f}s)")
    print(f"val_traj_mse={vmse:.5f}")


if __name__ == "__main__":
    main()
