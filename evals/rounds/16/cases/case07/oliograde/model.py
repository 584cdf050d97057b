import torch
import torch.nn as nn


class CumulativeHead(nn.Module):
    """Shared trunk, one logit per threshold: logit_k = P(grade > k)."""

    def __init__(self, n_in, n_grades, hidden, dropout):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(n_in, hidden), nn.SiLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.SiLU(),
        )
        self.out = nn.Linear(hidden, n_grades - 1)

    def forward(self, x):
        return self.out(self.trunk(x))

    @staticmethod
    def to_grade(logits):
        return (logits > 0).sum(dim=1)


def cumulative_targets(grade, n_grades):
    ks = torch.arange(n_grades - 1, device=grade.device)
    return (grade[:, None] > ks[None, :]).float()
