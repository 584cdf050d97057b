from torch import nn


def mlp(n_in, hidden, dropout=0.0):
    layers, d = [], n_in
    for h in hidden:
        layers += [nn.Linear(d, h), nn.SiLU()]
        if dropout:
            layers.append(nn.Dropout(dropout))
        d = h
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)
