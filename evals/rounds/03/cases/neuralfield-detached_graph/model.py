import torch.nn as nn
from torch.utils.checkpoint import checkpoint_sequential


class DeepField(nn.Module):
    """Plain deep MLP from (x, y) to a scalar. Activations of the trunk are
    recomputed in backward (gradient checkpointing) to keep memory flat when
    the batch is the whole grid."""

    def __init__(self, width=64, depth=8, segments=4):
        super().__init__()
        layers, d = [], 2
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.Tanh()]
            d = width
        self.trunk = nn.Sequential(*layers)
        self.head = nn.Linear(width, 1)
        self.segments = segments

    def forward(self, xy):
        if self.segments > 1 and self.training:
            h = checkpoint_sequential(self.trunk, self.segments, xy, use_reentrant=True)
        else:
            h = self.trunk(xy)
        return self.head(h).squeeze(-1)
