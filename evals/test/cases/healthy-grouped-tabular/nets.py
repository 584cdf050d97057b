import torch.nn as nn


class FatigueNet(nn.Module):
    def __init__(self, n_in, hidden=32, p=0.3):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, 2),
        )

    def forward(self, x):
        return self.layers(x)
