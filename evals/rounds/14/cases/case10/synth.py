import torch


def make_pairs(n, seed):
    """Radar patches [n, 3, 9, 9] in dBZ and gauge rain rate [n] in mm/h."""
    g = torch.Generator().manual_seed(seed)
    # rain rate field: a smooth blob with random centre offset and intensity
    r0 = torch.exp(torch.randn(n, generator=g) * 1.1 + 0.6)            # mm/h at blob core
    cx = torch.randn(n, generator=g) * 1.5
    cy = torch.randn(n, generator=g) * 1.5
    width = 1.5 + 2.0 * torch.rand(n, generator=g)
    ax = torch.arange(9, dtype=torch.float32) - 4
    yy, xx = torch.meshgrid(ax, ax, indexing="ij")
    d2 = (xx[None] - cx[:, None, None]) ** 2 + (yy[None] - cy[:, None, None]) ** 2
    rate = r0[:, None, None] * torch.exp(-d2 / (2 * width[:, None, None] ** 2))
    z = 200.0 * rate.clamp(min=0.01) ** 1.6
    dbz = 10 * torch.log10(z)
    sweeps = []
    for k, atten in enumerate([0.0, 1.5, 3.0]):
        s = dbz - atten + torch.randn(dbz.shape, generator=g) * 1.5
        if k == 2:
            bright = (torch.rand(n, 1, 1, generator=g) < 0.3).float() * 6.0
            s = s + bright
        sweeps.append(s)
    x = torch.stack(sweeps, 1)
    gauge = rate[:, 4, 4] * torch.exp(torch.randn(n, generator=g) * 0.12)
    return x, gauge
