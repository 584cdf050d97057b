import math

import torch

OBS, PRED = 8, 12


def walkers(n, seed, dt=0.4):
    """Constant-speed walkers that, at the end of observation, go straight or turn
    left/right at a corridor junction (the three modes)."""
    g = torch.Generator().manual_seed(seed)
    speed = 1.0 + 0.4 * torch.rand(n, generator=g)
    heading = (torch.rand(n, generator=g) - 0.5) * 0.6
    mode = torch.randint(3, (n,), generator=g)
    turn_rate = torch.tensor([0.0, 0.35, -0.35])[mode] * (0.8 + 0.4 * torch.rand(n, generator=g))
    pos = torch.zeros(n, 2)
    track = []
    for t in range(OBS + PRED):
        if t >= OBS:
            heading = heading + turn_rate
        step = torch.stack([torch.cos(heading), torch.sin(heading)], -1) * (speed * dt)[:, None]
        pos = pos + step + 0.02 * torch.randn(n, 2, generator=g)
        track.append(pos)
    track = torch.stack(track, 1)                        # (n, T, 2)
    origin = track[:, OBS - 1:OBS]
    rel = track - origin                                 # relative to last observation
    obs_vel = rel[:, 1:OBS] - rel[:, :OBS - 1]           # (n, OBS-1, 2) displacements
    return obs_vel, rel[:, OBS:]
