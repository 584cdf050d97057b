import torch.nn as nn

ACTIVATIONS = {"relu": nn.ReLU, "gelu": nn.GELU, "tanh": nn.Tanh}


class CapacityRegressor(nn.Module):
    def __init__(self, n_features, hidden=(64, 64), activation="gelu"):
        super().__init__()
        act = ACTIVATIONS[activation]
        layers, width = [], n_features
        for h in hidden:
            layers += [nn.Linear(width, h), act()]
            width = h
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)
