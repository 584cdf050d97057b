import torch

LENGTH = 96


def clean_signals(n, generator):
    t = torch.linspace(0, 1, LENGTH)
    freqs = torch.randint(1, 6, (n, 3), generator=generator).float()
    amps = torch.rand(n, 3, generator=generator) * 0.8 + 0.2
    phases = torch.rand(n, 3, generator=generator) * 6.2832
    waves = (amps[:, :, None] * torch.sin(6.2832 * freqs[:, :, None] * t + phases[:, :, None])).sum(1)
    # a step somewhere in about half of the signals
    step_at = torch.randint(10, LENGTH - 10, (n, 1), generator=generator)
    has_step = (torch.rand(n, 1, generator=generator) < 0.5).float()
    step = has_step * (torch.arange(LENGTH) >= step_at).float() * (torch.rand(n, 1, generator=generator) - 0.5) * 2
    return (waves + step).unsqueeze(1)                 # (N, 1, L)


def add_noise(x, sigma, generator=None):
    return x + sigma * torch.randn(x.shape, generator=generator)
