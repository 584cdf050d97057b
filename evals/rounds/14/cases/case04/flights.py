import math

import torch

RATE_HZ = 50
WIN = RATE_HZ


def wrap(a):
    return torch.atan2(torch.sin(a), torch.cos(a))


def simulate(n, seed):
    """IMU windows [n, 6, WIN] and target angles [n, 3] (roll, pitch, d_heading) in rad."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(WIN) / RATE_HZ
    angles = []
    for k, (amp, base) in enumerate([(0.5, 0.4), (0.5, 0.4), (2.5, 0.0)]):
        f = 0.2 + 1.0 * torch.rand(n, 2, generator=g)
        ph = 2 * math.pi * torch.rand(n, 2, generator=g)
        a = amp * torch.rand(n, 2, generator=g)
        off = base * torch.randn(n, 1, generator=g)
        drift = (torch.randn(n, 1, generator=g) * (3.0 if k == 2 else 0.0))
        ang = off + drift * t + (a[:, :1] * torch.sin(2 * math.pi * f[:, :1] * t + ph[:, :1])
                                 + a[:, 1:] * torch.sin(2 * math.pi * f[:, 1:] * t + ph[:, 1:]))
        angles.append(ang)
    roll, pitch, yaw = angles
    rates = [torch.gradient(a, spacing=1.0 / RATE_HZ, dim=1)[0] for a in angles]
    gyro = torch.stack(rates, 1) + 0.02 * torch.randn(n, 3, 1, generator=g) + 0.05 * torch.randn(n, 3, WIN, generator=g)
    grav = torch.stack([
        -torch.sin(pitch),
        torch.sin(roll) * torch.cos(pitch),
        torch.cos(roll) * torch.cos(pitch),
    ], 1)
    acc = grav + 0.08 * torch.randn(n, 3, WIN, generator=g)
    x = torch.cat([gyro, acc], 1)
    y = torch.stack([roll[:, -1], pitch[:, -1], wrap(yaw[:, -1] - yaw[:, 0])], 1)
    return x, y
