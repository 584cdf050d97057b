import torch.nn as nn


class CountNet(nn.Module):
    def __init__(self, channels=(16, 32, 64)):
        super().__init__()
        layers, c_in = [], 1
        for c in channels:
            layers += [nn.Conv2d(c_in, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
            c_in = c
        self.features = nn.Sequential(*layers)
        self.regressor = nn.Sequential(nn.Flatten(), nn.LazyLinear(128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, x):
        return self.regressor(self.features(x)).squeeze(-1)
