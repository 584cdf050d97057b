import torch.nn as nn
import torch.nn.functional as F


class DensityNet(nn.Module):
    """Fully convolutional: image (B,1,H,W) -> non-negative density (B,1,H,W)."""

    def __init__(self, width=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=2, dilation=2), nn.ReLU(),
        )
        self.head = nn.Conv2d(width, 1, 1)
        # start from an almost empty map: softplus(-5) * H * W is well below one cell
        nn.init.constant_(self.head.bias, -5.0)

    def forward(self, x):
        return F.softplus(self.head(self.body(x)))


def count_loss(density, counts):
    """Squared error between the integrated density and the annotated count."""
    err = density.sum(dim=(-2, -1)) - counts
    return (err ** 2).mean()
