import torch.nn as nn


class ESPCN(nn.Module):
    def __init__(self, scale=2, channels=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, channels, 5, padding=2), nn.Tanh(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.Tanh(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.Tanh(),
        )
        self.upsample = nn.Sequential(
            nn.Conv2d(channels, scale * scale, 3, padding=1),
            nn.PixelShuffle(scale),
            nn.Sigmoid(),
        )

    def forward(self, lr):
        return self.upsample(self.features(lr))
