import torch.nn as nn
import torch.nn.functional as F


class CuisineClassifier(nn.Module):
    def __init__(self, n_in, n_classes, hidden=128, dropout=0.2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(dropout))
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x, probs=True):
        """Class probabilities by default (what the card-scanner app consumes);
        pass probs=False for raw scores."""
        logits = self.out(self.body(x))
        return F.softmax(logits, dim=-1) if probs else logits
