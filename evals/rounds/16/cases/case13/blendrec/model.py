import numpy as np
import torch
import torch.nn as nn

from .catalogue import N_INGREDIENTS


def masked_mean(h, mask):
    """Mean over the real members of each set (mask False = padding).

    nanmean keeps a blend of any size from dividing by the padded length.
    """
    arr = h.detach().cpu().numpy().copy()
    arr[~mask.cpu().numpy()] = np.nan
    return torch.from_numpy(np.nanmean(arr, axis=1)).to(h.device)


class BlendScorer(nn.Module):
    def __init__(self, emb_dim=8, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(N_INGREDIENTS, emb_dim)
        self.phi = nn.Sequential(nn.Linear(emb_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, sets):
        mask = sets >= 0
        h = self.phi(self.emb(sets.clamp(min=0)))
        return self.rho(masked_mean(h, mask)).squeeze(-1)
