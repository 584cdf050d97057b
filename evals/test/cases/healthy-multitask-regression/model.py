import torch.nn as nn
import torch.nn.functional as F


class CapacityNet(nn.Module):
    """Shared trunk, a capacity regression head and an auxiliary chemistry head."""

    def __init__(self, n_in, n_chem, hidden=96):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(n_in, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
        )
        self.capacity_head = nn.Linear(hidden, 1)
        self.chem_head = nn.Linear(hidden, n_chem)

    def forward(self, x):
        h = self.trunk(x)
        capacity = self.capacity_head(h)                       # (B, 1)
        chem_logp = F.log_softmax(self.chem_head(h), dim=-1)   # (B, n_chem)
        return capacity, chem_logp
