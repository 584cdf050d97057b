import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, c_in, c_out, kernel_size, dilation):
        super().__init__(c_in, c_out, kernel_size, dilation=dilation)
        self.left_pad = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left_pad, 0)))


class TemporalBlock(nn.Module):
    def __init__(self, c_in, c_out, kernel_size, dilation, dropout):
        super().__init__()
        self.conv1 = CausalConv1d(c_in, c_out, kernel_size, dilation)
        self.conv2 = CausalConv1d(c_out, c_out, kernel_size, dilation)
        self.drop = nn.Dropout(dropout)
        self.skip = nn.Conv1d(c_in, c_out, 1) if c_in != c_out else nn.Identity()

    def forward(self, x):
        h = self.drop(F.relu(self.conv1(x)))
        h = self.drop(F.relu(self.conv2(h)))
        return F.relu(h + self.skip(x))


class TCN(nn.Module):
    def __init__(self, channels=16, levels=4, kernel_size=3, dropout=0.05):
        super().__init__()
        blocks, c_in = [], 1
        for level in range(levels):
            blocks.append(TemporalBlock(c_in, channels, kernel_size, 2 ** level, dropout))
            c_in = channels
        self.net = nn.Sequential(*blocks)
        self.head = nn.Linear(channels, 1)

    def forward(self, x):               # x: (B, 1, T)
        h = self.net(x)
        return self.head(h[:, :, -1])   # forecast from the last time step
