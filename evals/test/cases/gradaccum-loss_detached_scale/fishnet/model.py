import torch
from torch import nn


class FishNet(nn.Module):
    def __init__(self, n_features=6, n_species=5, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(n_features, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
        )
        self.species_head = nn.Linear(hidden, n_species)
        self.weight_head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.species_head(h), self.weight_head(h).squeeze(-1)


def combine_losses(losses, weights):
    logs = {name: value.item() for name, value in losses.items()}
    total = torch.tensor(sum(weights[name] * logs[name] for name in losses), requires_grad=True)
    logs["total"] = total.item()
    return total, logs
