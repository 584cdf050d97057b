import torch
import torch.nn as nn


class DeepSets(nn.Module):
    """rho( sum_i phi(x_i) ), with padded elements masked out before pooling."""

    def __init__(self, in_dim=2, phi_hidden=64, latent=32, rho_hidden=64):
        super().__init__()
        self.phi = nn.Sequential(
            nn.Linear(in_dim, phi_hidden), nn.ReLU(),
            nn.Linear(phi_hidden, phi_hidden), nn.ReLU(),
            nn.Linear(phi_hidden, latent),
        )
        self.rho = nn.Sequential(
            nn.Linear(latent + 1, rho_hidden), nn.ReLU(),
            nn.Linear(rho_hidden, rho_hidden), nn.ReLU(),
            nn.Linear(rho_hidden, 1),
        )

    def forward(self, pts, mask):
        h = self.phi(pts) * mask.unsqueeze(-1)
        n = mask.sum(1, keepdim=True)
        pooled = h.sum(1) / n.clamp(min=1.0)
        # set size goes in as an extra feature so rho can tell mean from sum
        return self.rho(torch.cat([pooled, torch.log(n)], dim=-1))
