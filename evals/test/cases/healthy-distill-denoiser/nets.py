import torch.nn as nn


class ConvDenoiser(nn.Module):
    """Residual 1-D conv denoiser: predicts the noise and subtracts it."""

    def __init__(self, width=32, depth=4, kernel=7):
        super().__init__()
        layers = [nn.Conv1d(1, width, kernel, padding=kernel // 2), nn.ReLU()]
        for _ in range(depth - 2):
            layers += [nn.Conv1d(width, width, kernel, padding=kernel // 2), nn.ReLU()]
        layers.append(nn.Conv1d(width, 1, kernel, padding=kernel // 2))
        self.net = nn.Sequential(*layers)

    def forward(self, noisy):
        return noisy - self.net(noisy)
