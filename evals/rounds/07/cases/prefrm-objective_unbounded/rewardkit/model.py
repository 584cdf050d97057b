import torch.nn as nn
import torch.nn.functional as F


class RewardHead(nn.Module):
    def __init__(self, dim, hidden, dropout):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def bt_log_likelihood(r_chosen, r_rejected):
    """Mean log P(chosen > rejected) under Bradley-Terry."""
    return F.logsigmoid(r_chosen - r_rejected).mean()
