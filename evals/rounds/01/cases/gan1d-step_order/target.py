import torch

MEANS = torch.tensor([-4.0, -1.0, 2.0, 5.0])
STDS = torch.tensor([0.4, 0.3, 0.5, 0.3])
WEIGHTS = torch.tensor([0.1, 0.4, 0.3, 0.2])


def sample_target(n, generator=None):
    comp = torch.multinomial(WEIGHTS, n, replacement=True, generator=generator)
    return (MEANS[comp] + STDS[comp] * torch.randn(n, generator=generator)).unsqueeze(1)


def wasserstein_1d(a, b):
    a, _ = a.flatten().sort()
    b, _ = b.flatten().sort()
    return (a - b).abs().mean().item()
