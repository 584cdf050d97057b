import torch.nn as nn


def mlp(d_in, hidden, depth, d_out=1):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, hidden), nn.SiLU()]
        d = hidden
    layers.append(nn.Linear(d, d_out))
    return nn.Sequential(*layers)


class RangeSurrogate(nn.Module):
    def __init__(self, n_features, hidden, depth):
        super().__init__()
        self.net = mlp(n_features, hidden, depth)

    def forward(self, x):
        return self.net(x)
