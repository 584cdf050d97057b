import torch
import torch.nn as nn


class ConvBlock(nn.Sequential):
    def __init__(self, cin, cout, k, dilation=1):
        super().__init__(
            nn.Conv1d(cin, cout, k, padding=dilation * (k // 2), dilation=dilation),
            nn.BatchNorm1d(cout),
            nn.ReLU(inplace=True),
        )


class KWSNet(nn.Module):
    def __init__(self, n_mfcc, n_classes, channels=48, dropout=0.1):
        super().__init__()
        self.body = nn.Sequential(
            ConvBlock(n_mfcc, channels, 5),
            ConvBlock(channels, channels, 3, dilation=2),
            ConvBlock(channels, channels, 3, dilation=4),
        )
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(2 * channels, n_classes)

    def forward(self, x):            # x: (B, n_mfcc, T)
        h = self.body(x)
        pooled = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.fc(self.drop(pooled))
