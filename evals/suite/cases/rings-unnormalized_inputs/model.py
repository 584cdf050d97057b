import torch
from torch import nn


class RingClassifier(nn.Module):
    """A small MLP that returns one raw logit per point (no sigmoid: the loss applies it)."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(2, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)
        self.act = nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.act(self.fc1(x))
        h = self.act(self.fc2(h))
        return self.out(h)  # [batch, 1]
