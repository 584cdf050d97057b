import torch.nn as nn
import torch.nn.functional as F


class SpiralNet(nn.Module):
    """A small MLP for the three-arm spiral."""

    def __init__(self, hidden=64, classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        logits = self.head(self.body(x))
        return F.softmax(logits, dim=1)  # "probabilities are nicer to look at"
