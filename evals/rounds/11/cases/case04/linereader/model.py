import torch.nn as nn

from .glyphs import CELL_W, LINE_H


class ColumnReader(nn.Module):
    """Conv trunk, pooled to one slot per character cell, then a shared per-slot classifier."""

    def __init__(self, n_classes=10, channels=(16, 32)):
        super().__init__()
        c1, c2 = channels
        self.trunk = nn.Sequential(
            nn.Conv2d(1, c1, 3, padding=1), nn.ReLU(),
            nn.Conv2d(c1, c2, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(kernel_size=(1, CELL_W)),
        )
        self.classifier = nn.Sequential(
            nn.Linear(c2 * LINE_H, 128), nn.ReLU(), nn.Linear(128, n_classes),
        )

    def forward(self, x):
        feats = self.trunk(x)                      # (B, C, H, W')
        B, C, H, W = feats.shape
        cols = feats.reshape(B, W, C * H)          # one feature vector per slot
        return self.classifier(cols)               # (B, W', n_classes)
