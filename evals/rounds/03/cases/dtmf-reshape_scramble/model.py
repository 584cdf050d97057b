import torch.nn as nn


class ConvRecognizer(nn.Module):
    """Stack of 1-D convolutions over frames, per-frame class scores."""

    def __init__(self, n_feats, n_classes, width=64, n_layers=3, kernel=5):
        super().__init__()
        layers, c = [], n_feats
        for _ in range(n_layers):
            layers += [nn.Conv1d(c, width, kernel, padding=kernel // 2), nn.GELU()]
            c = width
        self.convs = nn.Sequential(*layers)
        self.out = nn.Linear(width, n_classes)

    def forward(self, x):                        # x: (batch, frames, feats)
        h = self.convs(x.transpose(1, 2))        # (batch, width, frames)
        return self.out(h.transpose(1, 2))       # (batch, frames, classes)
