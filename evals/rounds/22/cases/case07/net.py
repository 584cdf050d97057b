from torch import nn


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm3d(cout), nn.ReLU())


class FoamNet(nn.Module):
    def __init__(self, n_classes=3, width=12):
        super().__init__()
        self.features = nn.Sequential(
            conv_block(1, width), nn.MaxPool3d(2),
            conv_block(width, 2 * width), nn.MaxPool3d(2),
            conv_block(2 * width, 2 * width),
            nn.AdaptiveAvgPool3d(1), nn.Flatten(),
        )
        self.classifier = nn.Sequential(nn.Dropout(0.3), nn.Linear(2 * width, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))
