from torch import nn


def mlp(d_in, d_out, hidden, act):
    return nn.Sequential(
        nn.Linear(d_in, hidden), act(),
        nn.Linear(hidden, hidden), act(),
        nn.Linear(hidden, hidden), act(),
        nn.Linear(hidden, d_out),
    )


class Generator(nn.Module):
    def __init__(self, z_dim=8, hidden=64):
        super().__init__()
        self.net = mlp(z_dim, 2, hidden, nn.ReLU)

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = mlp(2, 1, hidden, lambda: nn.LeakyReLU(0.2))

    def forward(self, x):
        return self.net(x).squeeze(-1)
