import math

import torch


def simulate(n, seed, n_sensors=12, noise=0.15):
    g = torch.Generator().manual_seed(seed)
    heading = (torch.rand(n, generator=g) * 2 - 1) * math.pi
    phase = torch.arange(n_sensors) * (2 * math.pi / n_sensors)
    gain = 1.0 + 0.3 * torch.rand(n_sensors, generator=torch.Generator().manual_seed(99))
    # pressure is strongest on the sensor facing the flow, with a second harmonic from the hull shape
    resp = torch.cos(heading[:, None] - phase) + 0.4 * torch.cos(2 * (heading[:, None] - phase))
    x = gain * resp + noise * torch.randn(n, n_sensors, generator=g)
    return x, heading
