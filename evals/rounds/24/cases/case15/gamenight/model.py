import torch
import torch.nn as nn

from .sim import PLAYER_DIM, GENRES


class GroupScorer(nn.Module):
    """Deep-sets style scorer: encode every player, pool over the group, then
    combine the pooled group vector with the game description."""

    def __init__(self, hidden=64):
        super().__init__()
        self.player_enc = nn.Sequential(
            nn.Linear(PLAYER_DIM, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.presence = nn.Linear(PLAYER_DIM, 1)
        self.scorer = nn.Sequential(
            nn.Linear(2 * hidden + GENRES + 1, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def pool(self, h, players):
        # share of the evening each player gets, from their own features
        share = torch.softmax(self.presence(players), dim=0)
        steered = (share * h).sum(1)
        return torch.cat([steered, h.mean(1)], dim=-1)

    def forward(self, players, game):
        h = self.player_enc(players)                # (B, P, H)
        group = self.pool(h, players)               # (B, 2H)
        return self.scorer(torch.cat([group, game], -1)).squeeze(-1)
