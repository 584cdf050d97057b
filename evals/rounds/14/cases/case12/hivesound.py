import torch

N_BINS = 64


def hive_recordings(n_hives, per_hive, seed):
    """Returns spectra [n, 64], queen label [n] (1 = queen present), hive id [n], hive by hive."""
    g = torch.Generator().manual_seed(seed)
    f = torch.linspace(0, 1, N_BINS)
    xs, ys, hs = [], [], []
    for h in range(n_hives):
        queen = int(torch.rand(1, generator=g).item() < 0.5)
        gain = torch.randn(1, generator=g).item() * 2.0
        tilt = torch.randn(1, generator=g).item() * 1.0
        hum_f = 0.22 + 0.04 * torch.rand(1, generator=g).item()
        for _ in range(per_hive):
            spec = -3.0 * f + tilt * (f - 0.5) + gain
            if queen:
                spec = spec + 1.5 * torch.exp(-((f - hum_f) ** 2) / 0.0008) + 0.8 * torch.exp(-((f - 2 * hum_f) ** 2) / 0.0008)
            else:
                spec = spec + 0.8 * torch.exp(-((f - 0.45) ** 2) / 0.02) + 0.3 * torch.exp(-((f - hum_f) ** 2) / 0.0008)
            spec = spec + 0.35 * torch.randn(N_BINS, generator=g)
            xs.append(spec)
            ys.append(queen)
            hs.append(h)
    return torch.stack(xs), torch.tensor(ys), torch.tensor(hs)
