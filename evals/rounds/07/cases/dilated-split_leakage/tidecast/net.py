import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, kernel_size, dilation):
        super().__init__(cin, cout, kernel_size, dilation=dilation)
        self.left = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


class ResidualBlock(nn.Module):
    def __init__(self, channels, skip, dilation):
        super().__init__()
        self.filt = CausalConv1d(channels, channels, 2, dilation)
        self.gate = CausalConv1d(channels, channels, 2, dilation)
        self.res = nn.Conv1d(channels, channels, 1)
        self.skip = nn.Conv1d(channels, skip, 1)

    def forward(self, x):
        h = torch.tanh(self.filt(x)) * torch.sigmoid(self.gate(x))
        return x + self.res(h), self.skip(h)


class WaveNetForecaster(nn.Module):
    def __init__(self, channels=16, skip=24, dilations=(1, 2, 4, 8, 16, 32)):
        super().__init__()
        self.inp = CausalConv1d(1, channels, 2, 1)
        self.blocks = nn.ModuleList(ResidualBlock(channels, skip, d) for d in dilations)
        self.head = nn.Sequential(nn.ReLU(), nn.Conv1d(skip, skip, 1), nn.ReLU(), nn.Conv1d(skip, 1, 1))

    def forward(self, x):  # x: [B, T]
        h = self.inp(x.unsqueeze(1))
        skips = 0
        for blk in self.blocks:
            h, s = blk(h)
            skips = skips + s
        return self.head(skips)[:, 0, -1]  # prediction from the last time step
