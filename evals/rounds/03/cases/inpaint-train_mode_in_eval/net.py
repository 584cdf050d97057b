import torch
import torch.nn as nn


def conv_bn(cin, cout, dilation=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class InpaintNet(nn.Module):
    """Fully convolutional; dilations grow the receptive field to cover the largest hole."""

    def __init__(self, width=16, p_drop=0.1):
        super().__init__()
        self.body = nn.Sequential(
            conv_bn(2, width),
            conv_bn(width, width, dilation=2),
            nn.Dropout2d(p_drop),
            conv_bn(width, width, dilation=4),
            conv_bn(width, width, dilation=2),
        )
        self.head = nn.Conv2d(width, 1, 1)

    def forward(self, image, hole):
        x = torch.cat([image * (1 - hole), hole], dim=1)
        out = torch.sigmoid(self.head(self.body(x)))
        # keep known pixels, fill only the hole
        return image * (1 - hole) + out * hole
