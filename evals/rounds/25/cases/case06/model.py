import torch
import torch.nn as nn


class TeamEncoder(nn.Module):
    """Deep-sets style encoder over the members present on the night."""

    def __init__(self, pool_size, n_cat, member_dim, hidden):
        super().__init__()
        self.member = nn.Embedding(pool_size + 1, member_dim, padding_idx=pool_size)
        self.phi = nn.Sequential(nn.Linear(member_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.rho = nn.Sequential(nn.Linear(3 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.hidden = hidden
        self.pad = pool_size

    def context(self, mix):
        # venues use different round sets, so the mix width is taken from the batch
        proj = nn.Sequential(nn.Linear(mix.shape[-1], self.hidden), nn.Tanh())
        return proj(mix)

    def forward(self, members, mix):
        present = members >= 0                              # [B, S]
        ids = torch.where(present, members, torch.full_like(members, self.pad))
        h = self.phi(self.member(ids))                      # [B, S, H]
        m = present.unsqueeze(-1).float()
        pooled_sum = (h * m).sum(1)
        pooled_max = h.masked_fill(~present.unsqueeze(-1), -1e4).amax(1)
        return self.rho(torch.cat([pooled_sum, pooled_max, self.context(mix)], dim=1)).squeeze(-1)
