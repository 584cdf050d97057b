import torch.nn as nn


class FaultClassifier(nn.Module):
    def __init__(self, n_features, n_classes, hidden=256, depth=3, dropout=0.5):
        super().__init__()
        layers = [nn.BatchNorm1d(n_features)]
        width = n_features
        for _ in range(depth):
            layers += [
                nn.Linear(width, hidden),
                nn.BatchNorm1d(hidden),
                nn.ReLU(),
                nn.Dropout(dropout),
            ]
            width = hidden
        layers.append(nn.Linear(width, n_classes))
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)
