import torch
import torch.nn as nn
import torch.nn.functional as F


class PositiveLinear(nn.Module):
    """Linear layer whose effective weight is softplus(raw) (non-negative)."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.raw = nn.Parameter(torch.randn(d_out, d_in) * 0.3 - 1.0)
        self.bias = nn.Parameter(torch.zeros(d_out))

    def forward(self, x):
        return F.linear(x, F.softplus(self.raw), self.bias)


class MonotoneNet(nn.Module):
    def __init__(self, n_mono, n_free, hidden):
        super().__init__()
        self.free = nn.Sequential(nn.Linear(n_free, hidden), nn.Tanh())
        self.mono_in = PositiveLinear(n_mono, hidden)
        self.mix = PositiveLinear(hidden, hidden)
        self.out = PositiveLinear(hidden, 1)
        self.gate = nn.Linear(hidden, hidden)   # free features shift the monotone units

    def forward(self, xm, xf):
        h_free = self.free(xf)
        h = torch.tanh(self.mono_in(xm) + self.gate(h_free))
        h = torch.tanh(self.mix(h))
        return self.out(h).squeeze(-1)
