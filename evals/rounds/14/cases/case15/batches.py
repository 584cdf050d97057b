import torch

N_LEVELS = 5


def roast_logs(n, seed):
    """Features [n, 12] and roast level [n] in 1..5 (as written on the sample jars)."""
    g = torch.Generator().manual_seed(seed)
    darkness = torch.rand(n, generator=g) * 5.0                    # latent
    level = (darkness.floor() + 1).clamp(1, N_LEVELS).long()
    wl = torch.linspace(0, 1, 8)
    refl = 0.7 - 0.11 * darkness[:, None] * (1.2 - 0.5 * wl) + 0.04 * torch.randn(n, 8, generator=g)
    weight_loss = 11 + 1.6 * darkness + 0.6 * torch.randn(n, generator=g)
    density = 0.68 - 0.035 * darkness + 0.02 * torch.randn(n, generator=g)
    dtr = 0.15 + 0.02 * darkness + 0.02 * torch.randn(n, generator=g)
    end_temp = 196 + 6 * darkness + 3 * torch.randn(n, generator=g)
    feats = torch.cat([refl, torch.stack([weight_loss, density, dtr, end_temp], 1)], 1)
    return feats, level
