from __future__ import annotations

import torch
from torch import nn


class MLPClassifier(nn.Module):
    def __init__(self, in_features: int, hidden_sizes: list[int], n_classes: int, dropout: float = 0.0):
        super().__init__()
        sizes = [in_features, *hidden_sizes]
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(sizes[-1], n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.hidden:
            x = self.dropout(torch.relu(layer(x)))
        return self.head(x)  # (B, n_classes) unnormalized logits
