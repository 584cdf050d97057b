"""Rudder angle from hull telemetry."""
import math
import os

import numpy as np
import torch
import torch.nn as nn

SEED = int(os.environ.get("SEED", 21))
EPOCHS = 40
LR = 3e-3


def telemetry(n, rng):
    angle = rng.uniform(-math.pi, math.pi, n)
    speed = rng.uniform(0.5, 2.0, n)
    t = np.linspace(0, 1, 16)
    yaw = (np.sin(angle) * speed)[:, None] * (1 - np.exp(-4 * t))[None] + rng.normal(0, 0.05, (n, 16))
    heel = (np.cos(angle) * 0.5)[:, None] + rng.normal(0, 0.05, (n, 16))
    x = np.concatenate([yaw, heel, speed[:, None]], 1).astype(np.float32)
    return x, angle.astype(np.float32)


class RunningScaler:
    """Keeps a running mean/std of the hidden features (helps with the speed spread)."""

    def __init__(self):
        self.mean, self.std = None, None

    def __call__(self, h: np.ndarray) -> np.ndarray:
        if self.mean is None:
            self.mean, self.std = h.mean(0), h.std(0) + 1e-5
        return (h - self.mean) / self.std


class RudderNet(nn.Module):
    def __init__(self, d_in, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, 2)
        self.scaler = RunningScaler()

    def forward(self, x):
        h = self.trunk(x)
        h = torch.from_numpy(self.scaler(h.detach().numpy()))
        return self.head(h)


def wrap(a):
    return torch.remainder(a + math.pi, 2 * math.pi) - math.pi


def main():
    rng = np.random.default_rng(SEED)
    torch.manual_seed(SEED)
    Xtr, atr = map(torch.tensor, telemetry(2000, rng))
    Xva, ava = map(torch.tensor, telemetry(500, rng))
    target = torch.stack([torch.sin(atr), torch.cos(atr)], 1)
    model = RudderNet(Xtr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    for ep in range(EPOCHS):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), 64):
            idx = perm[i:i + 64]
            loss = ((model(Xtr[idx]) - target[idx]) ** 2).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            sc = model(Xva)
            err = wrap(torch.atan2(sc[:, 0], sc[:, 1]) - ava).abs().mean().item() * 180 / math.pi
        if ep % 10 == 9:
            print(f"epoch {ep+1} loss {loss.item():.4f} val_mae_deg {err:.2f}")
    print(f"val_mae_deg={err:.3f}")


if __name__ == "__main__":
    main()
