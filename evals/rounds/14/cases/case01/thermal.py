import torch


def simulate(n, defect_rate, seed):
    g = torch.Generator().manual_seed(seed)
    ax = torch.arange(12).float()
    yy, xx = torch.meshgrid(ax, ax, indexing="ij")
    # irradiance gradient + sensor noise + busbar stripes
    slope = torch.randn(n, 2, generator=g) * 0.15
    base = slope[:, :1, None] * (xx - 6) + slope[:, 1:, None] * (yy - 6)
    stripes = 0.6 * ((xx % 4) == 0).float()
    x = base + stripes + torch.randn(n, 12, 12, generator=g) * 0.5
    y = (torch.rand(n, generator=g) < defect_rate).float()
    # defects: a localized warm spot of a few kelvin
    cx = 2 + torch.rand(n, generator=g) * 8
    cy = 2 + torch.rand(n, generator=g) * 8
    amp = 1.5 + 1.5 * torch.rand(n, generator=g)
    spot = amp[:, None, None] * torch.exp(-((xx - cx[:, None, None]) ** 2 + (yy - cy[:, None, None]) ** 2) / 2.0)
    x = x + spot * y[:, None, None]
    # a few benign reflections on healthy cells (broad, weaker)
    refl = (torch.rand(n, generator=g) < 0.2).float() * (1 - y)
    x = x + refl[:, None, None] * 1.0 * torch.exp(-((xx - cx[:, None, None]) ** 2 + (yy - cy[:, None, None]) ** 2) / 18.0)
    return x.unsqueeze(1), y
