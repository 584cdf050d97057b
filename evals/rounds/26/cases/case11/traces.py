import math

import torch

# a shell has a rough, detuned scale; these are the notes players name
NOTES_HZ = [110 * 2 ** (k / 12) for k in range(0, 24, 2)]


def breath_traces(n, sample_rate, n_samples, noise, generator):
    t = torch.arange(n_samples) / sample_rate
    labels = torch.randint(0, len(NOTES_HZ), (n,), generator=generator)
    f0 = torch.tensor(NOTES_HZ)[labels] * (1 + 0.015 * torch.randn(n, generator=generator))
    vib = 0.01 * torch.sin(2 * math.pi * (4 + 3 * torch.rand(n, 1, generator=generator)) * t)
    phase = 2 * math.pi * torch.cumsum(f0[:, None] * (1 + vib), dim=1) / sample_rate
    amp = torch.rand(n, 3, generator=generator) * torch.tensor([1.0, 0.6, 0.3])
    sig = sum(amp[:, k:k + 1] * torch.sin((k + 1) * phase) for k in range(3))
    env = torch.clamp(t / 0.03, max=1.0) * (0.7 + 0.3 * torch.rand(n, 1, generator=generator))
    sig = sig * env + noise * torch.randn(n, n_samples, generator=generator)
    return sig, labels


def log_spectrum(sig):
    win = torch.hann_window(sig.shape[-1])
    mag = torch.fft.rfft(sig * win).abs()
    return torch.log1p(mag)
