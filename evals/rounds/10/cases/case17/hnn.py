import argparse

import numpy as np
import torch
import torch.nn as nn


def pendulum_field(x):
    q, p = x[..., 0], x[..., 1]
    return np.stack([p, -3.0 * np.sin(q)], -1)


def rk4_np(x, dt):
    k1 = pendulum_field(x)
    k2 = pendulum_field(x + dt / 2 * k1)
    k3 = pendulum_field(x + dt / 2 * k2)
    k4 = pendulum_field(x + dt * k3)
    return x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def trajectories(n, steps, dt, rng, noise=0.01):
    x = np.stack([rng.uniform(-2.2, 2.2, n), rng.uniform(-2.0, 2.0, n)], -1)
    out = [x]
    for _ in range(steps):
        x = rk4_np(x, dt)
        out.append(x)
    traj = np.stack(out, 1)
    return traj, traj + noise * rng.normal(size=traj.shape)


class HNN(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.H = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden),
                               nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        """Symplectic gradient of the learned energy."""
        if not x.requires_grad:
            x = x.requires_grad_(True)
        H = self.H(x).sum()
        (dH,) = torch.autograd.grad(H, x, create_graph=self.training)
        return torch.stack([dH[..., 1], -dH[..., 0]], -1)


def rollout(model, x0, steps, dt):
    xs = [x0]
    x = x0
    with torch.enable_grad():   # the field itself needs autograd, even at eval time
        for _ in range(steps):
            k1 = model(x)
            k2 = model((x + dt / 2 * k1).detach())
            k3 = model((x + dt / 2 * k2).detach())
            k4 = model((x + dt * k3).detach())
            x = (x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)).detach()
            xs.append(x)
    return torch.stack(xs, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    dt = 0.05

    _, noisy = trajectories(80, 60, dt, rng)
    # central differences as derivative targets
    x = noisy[:, 1:-1].reshape(-1, 2)
    dxdt = ((noisy[:, 2:] - noisy[:, :-2]) / (2 * dt)).reshape(-1, 2)
    x = torch.tensor(x, dtype=torch.float32)
    dxdt = torch.tensor(dxdt, dtype=torch.float32)

    model = HNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(x))
        tot = 0.0
        for i in range(0, len(x), args.batch_size):
            idx = perm[i:i + args.batch_size]
            pred = model(x[idx].clone())
            loss = ((pred - dxdt[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        if epoch % 10 == 9:
            print(f"epoch {epoch+1} deriv_mse={tot/len(x):.4f}")

    model.eval()
    clean, _ = trajectories(20, 60, dt, np.random.default_rng(1000 + args.seed))
    clean = torch.tensor(clean, dtype=torch.float32)
    pred = rollout(model, clean[:, 0], 60, dt)
    base = ((clean - clean[:, :1]) ** 2).mean().item()
    mse = ((pred - clean) ** 2).mean().item()
    print(f"static_baseline_mse={base:.4f}")
    print(f"rollout_mse={mse:.4f}")


if __name__ == "__main__":
    main()
