import torch.nn as nn


def conv_block(cin, cout, dilation=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=dilation, dilation=dilation),
        nn.GroupNorm(4, cout),
        nn.ReLU(inplace=True),
    )


class MeadowNet(nn.Module):
    """Small dilated FCN: keeps full resolution, context from dilation."""

    def __init__(self, width=16, n_classes=2):
        super().__init__()
        self.features = nn.Sequential(
            conv_block(1, width),
            conv_block(width, width, dilation=2),
            conv_block(width, width, dilation=4),
            conv_block(width, width),
        )
        self.classifier = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        return self.classifier(self.features(x))
