import torch.nn as nn


class ConvEncoder(nn.Module):
    def __init__(self, code_dim=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),   # 6x6
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),   # 3x3
            nn.Flatten(),
            nn.Linear(32 * 9, code_dim),
        )

    def forward(self, x):
        return self.net(x)


class ConvDecoder(nn.Module):
    def __init__(self, code_dim=32):
        super().__init__()
        self.fc = nn.Linear(code_dim, 32 * 9)
        self.net = nn.Sequential(
            nn.ReLU(),
            nn.ConvTranspose2d(32, 32, 4, stride=2, padding=1), nn.ReLU(),   # 6x6
            nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1), nn.ReLU(),   # 12x12
            nn.Conv2d(16, 1, 3, padding=1),
        )

    def forward(self, z):
        return self.net(self.fc(z).view(-1, 32, 3, 3))


class LinearProbe(nn.Module):
    def __init__(self, code_dim, n_classes):
        super().__init__()
        self.fc = nn.Linear(code_dim, n_classes)

    def forward(self, z):
        return self.fc(z)
