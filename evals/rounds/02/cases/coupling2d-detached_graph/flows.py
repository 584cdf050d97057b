import math

import torch
import torch.nn as nn


class ActNorm(nn.Module):
    """Per-dimension affine map initialised from the first batch (Glow)."""

    def __init__(self, dim):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))
        self.register_buffer("initialized", torch.tensor(False))

    @torch.no_grad()
    def _init(self, x):
        self.loc.copy_(-x.mean(0))
        self.log_scale.copy_(-torch.log(x.std(0) + 1e-6))
        self.initialized.fill_(True)

    def forward(self, x):
        if not self.initialized:
            self._init(x)
        y = (x + self.loc) * torch.exp(self.log_scale)
        logdet = x.new_full((x.shape[0],), float(self.log_scale.sum()))
        return y, logdet


class AffineCoupling(nn.Module):
    """Transform one half of the coordinates conditioned on the other half."""

    def __init__(self, dim, mask, hidden=64):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 2 * dim))
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def forward(self, x):
        x_cond = x * self.mask
        s, t = self.net(x_cond).chunk(2, dim=1)
        s = torch.tanh(s) * (1 - self.mask)
        t = t * (1 - self.mask)
        y = x_cond + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(1)


class RealNVP(nn.Module):
    def __init__(self, dim=2, n_coupling=6, hidden=64):
        super().__init__()
        layers = []
        for k in range(n_coupling):
            mask = torch.tensor([float((i + k) % 2) for i in range(dim)])
            layers += [ActNorm(dim), AffineCoupling(dim, mask, hidden)]
        self.layers = nn.ModuleList(layers)
        self.dim = dim

    def forward(self, x):
        """x -> z and log|det dz/dx| per sample."""
        logdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet

    def log_prob(self, x):
        z, logdet = self(x)
        log_base = -0.5 * (z ** 2).sum(1) - 0.5 * self.dim * math.log(2 * math.pi)
        return log_base + logdet
