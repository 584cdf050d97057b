import torch.nn as nn
import torch.nn.functional as F


class ConvBNAct(nn.Sequential):
    def __init__(self, c_in, c_out, stride=1):
        super().__init__(
            nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False),
            nn.BatchNorm2d(c_out),
            nn.ReLU(inplace=True),
        )


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)


class TileNet(nn.Module):
    def __init__(self, width=24, n_classes=8):
        super().__init__()
        self.stem = ConvBNAct(1, width)
        self.blocks = nn.Sequential(
            ResBlock(width),
            ConvBNAct(width, 2 * width, stride=2),   # 12 -> 6
            ResBlock(2 * width),
        )
        self.head = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(2 * width, n_classes),
        )

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))
