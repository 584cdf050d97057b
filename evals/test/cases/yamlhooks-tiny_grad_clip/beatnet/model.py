import torch.nn as nn


class BeatNet(nn.Module):
    def __init__(self, n_classes, channels=(16, 32, 32), kernel_size=5, dropout=0.2):
        super().__init__()
        layers, c_in = [], 1
        for c in channels:
            layers += [
                nn.Conv1d(c_in, c, kernel_size, padding=kernel_size // 2),
                nn.BatchNorm1d(c),
                nn.ReLU(),
                nn.MaxPool1d(2),
            ]
            c_in = c
        self.body = nn.Sequential(*layers)
        self.pool = nn.AdaptiveMaxPool1d(1)
        self.out = nn.Sequential(nn.Flatten(), nn.Dropout(dropout), nn.Linear(c_in, n_classes))

    def forward(self, x):
        return self.out(self.pool(self.body(x)))
