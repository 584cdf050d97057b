import torch
import torch.nn as nn


class DayClassifier(nn.Module):
    def __init__(self, n_in, n_classes=3, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)

    def predict_proba(self, x):
        return torch.softmax(self.forward(x), dim=-1)
