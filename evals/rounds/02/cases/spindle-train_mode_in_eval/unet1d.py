import torch
import torch.nn as nn


def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv1d(c_in, c_out, 5, padding=2), nn.BatchNorm1d(c_out), nn.ReLU(inplace=True),
        nn.Conv1d(c_out, c_out, 5, padding=2), nn.BatchNorm1d(c_out), nn.ReLU(inplace=True),
    )


class UNet1d(nn.Module):
    def __init__(self, n_classes=3, base=16, dropout=0.3):
        super().__init__()
        c1, c2, c3 = base, base * 2, base * 4
        self.enc1 = conv_block(1, c1)
        self.enc2 = conv_block(c1, c2)
        self.pool = nn.MaxPool1d(2)
        self.bottleneck = nn.Sequential(conv_block(c2, c3), nn.Dropout(dropout))
        self.up2 = nn.ConvTranspose1d(c3, c2, 2, stride=2)
        self.dec2 = conv_block(2 * c2, c2)
        self.up1 = nn.ConvTranspose1d(c2, c1, 2, stride=2)
        self.dec1 = conv_block(2 * c1, c1)
        self.out = nn.Conv1d(c1, n_classes, 1)

    def forward(self, x):                       # x: (B, 1, L), L divisible by 4
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        b = self.bottleneck(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(b), e2], dim=1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], dim=1))
        return self.out(d1)                     # (B, n_classes, L)
