import torch.nn as nn


class PixelClassifier(nn.Module):
    def __init__(self, n_bands, hidden=64):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(n_bands, hidden),
            nn.ReLU(),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.mlp(x).squeeze(-1)

    def predict(self, x, n_classes):
        return self.forward(x).round().clamp(0, n_classes - 1).long()
