import torch.nn as nn


class ResidualDenoiser(nn.Module):
    """DnCNN-like: conv stack estimates the noise, output = input - noise."""

    def __init__(self, channels=32, depth=5, kernel=7):
        super().__init__()
        pad = kernel // 2
        layers = [nn.Conv1d(1, channels, kernel, padding=pad), nn.ReLU()]
        for _ in range(depth - 2):
            layers += [nn.Conv1d(channels, channels, kernel, padding=pad), nn.ReLU()]
        layers += [nn.Conv1d(channels, 1, kernel, padding=pad)]
        self.body = nn.Sequential(*layers)

    def forward(self, x):
        return x - self.body(x)
