import torch.nn as nn


class ActivityMLP(nn.Module):
    """MLP over per-window summary features; works with any number of sensor features."""

    def __init__(self, n_classes, hidden=64, p_drop=0.1):
        super().__init__()
        self.hidden = hidden
        self.body = nn.Sequential(
            nn.ReLU(),
            nn.Dropout(p_drop),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
        )
        self.classifier = nn.Linear(hidden, n_classes)

    def stem(self, x):
        self.input_layer = nn.Linear(x.shape[-1], self.hidden)
        return self.input_layer(x)

    def forward(self, x):                     # x: (B, n_features)
        return self.classifier(self.body(self.stem(x)))
