import torch.nn as nn


class PriceNet(nn.Module):
    def __init__(self, d_in=4, hidden=96):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 1), nn.Softplus(),   # prices are positive
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)
