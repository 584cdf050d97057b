import torch.nn as nn


class KernelNet(nn.Module):
    """MLP returning log-probabilities over varieties."""

    def __init__(self, n_features, n_classes, hidden=32, dropout=0.1):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_features, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_classes),
            nn.LogSoftmax(dim=1),
        )

    def forward(self, x):
        return self.body(x)
