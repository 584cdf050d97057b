import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PlanarFlow(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.u = nn.Parameter(torch.randn(dim) * 0.1)
        self.w = nn.Parameter(torch.randn(dim) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))
        self._last_log_det = None

    def u_hat(self):
        # enforce w^T u >= -1 so the map stays invertible
        wu = self.w @ self.u
        m = -1 + F.softplus(wu)
        return self.u + (m - wu) * self.w / (self.w @ self.w + 1e-8)

    def forward(self, x):
        u = self.u_hat()
        lin = x @ self.w + self.b  # (B,)
        z = x + u * torch.tanh(lin).unsqueeze(1)
        psi = (1 - torch.tanh(lin) ** 2).unsqueeze(1) * self.w  # (B, D)
        log_abs_det = torch.log(torch.abs(1 + psi @ u) + 1e-8)
        self._last_log_det = log_abs_det.detach()  # kept for diagnostics
        return z, self._last_log_det


class AffineNorm(nn.Module):
    """Elementwise affine layer (learned shift and log-scale)."""

    def __init__(self, dim):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(dim))
        self.log_scale = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        z = (x - self.shift) * torch.exp(-self.log_scale)
        return z, (-self.log_scale.sum()).expand(x.shape[0])


class NormalizingFlow(nn.Module):
    def __init__(self, dim=2, n_layers=24):
        super().__init__()
        self.layers = nn.ModuleList([AffineNorm(dim)] + [PlanarFlow(dim) for _ in range(n_layers)])
        self.dim = dim

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        z = x
        for layer in self.layers:
            z, ld = layer(z)
            log_det = log_det + ld
        return z, log_det

    def log_prob(self, x):
        z, log_det = self(x)
        log_pz = -0.5 * (z ** 2).sum(1) - 0.5 * self.dim * math.log(2 * math.pi)
        return log_pz + log_det
