import torch.nn as nn


class SharedTrunkNet(nn.Module):
    def __init__(self, n_features, n_classes, hidden=96, depth=2, dropout=0.0):
        super().__init__()
        layers, d = [], n_features
        for _ in range(depth):
            layers += [nn.Linear(d, hidden), nn.ReLU(), nn.Dropout(dropout)]
            d = hidden
        self.trunk = nn.Sequential(*layers)
        self.capacity_head = nn.Linear(hidden, 1)
        self.defect_head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        h = self.trunk(x)
        return self.capacity_head(h).squeeze(-1), self.defect_head(h)
