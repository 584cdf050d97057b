from torch import nn


def conv_bn(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class GlyphCNN(nn.Module):
    def __init__(self, width=16, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(1, width),
            conv_bn(width, 2 * width),
            nn.MaxPool2d(2),                 # 8x8 -> 4x4
            conv_bn(2 * width, 4 * width),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(4 * width, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
