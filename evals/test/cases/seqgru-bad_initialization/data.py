import math

import torch


def simulate_load(weeks=12, n_feeders=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    hours = weeks * 7 * 24
    t = torch.arange(hours, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * (t % 24) / 24 - math.pi / 2)
    evening = torch.exp(-0.5 * (((t % 24) - 19) / 2.0) ** 2)
    weekday = ((t // 24) % 7 < 5).float()
    temp = torch.sin(2 * math.pi * t / (24 * 30)) + 0.3 * torch.randn(hours, generator=g).cumsum(0) / math.sqrt(hours)
    series = []
    for _ in range(n_feeders):
        w = 0.5 + torch.rand(4, generator=g)
        load = w[0] * daily + w[1] * evening * (0.6 + 0.4 * weekday) + w[2] * 0.5 * weekday + w[3] * 0.4 * temp
        load = load + 0.08 * torch.randn(hours, generator=g)
        series.append(load)
    return torch.stack(series, dim=1)


def batchify(series, n_streams):
    steps = series.size(0) // n_streams
    series = series[: steps * n_streams]
    return series.view(n_streams, steps, -1)
