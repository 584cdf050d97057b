import torch.nn as nn


def block(cin, cout):
    return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1), nn.BatchNorm3d(cout), nn.ReLU(), nn.MaxPool3d(2))


class HailNet(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.features = nn.Sequential(block(1, 8), block(8, 16))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(16 * 27, n_cls))

    def forward(self, x):
        return self.classifier(self.features(x))
