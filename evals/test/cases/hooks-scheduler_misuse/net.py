import torch.nn as nn


class RiskMLP(nn.Module):
    def __init__(self, n_in, n_out, hidden=(128, 64), p_drop=0.1):
        super().__init__()
        layers = []
        width = n_in
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(p_drop)]
            width = h
        layers.append(nn.Linear(width, n_out))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)
