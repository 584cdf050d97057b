import torch
import torch.nn as nn


def masked_softmax(scores, mask, dim=0):
    scores = scores.masked_fill(mask == 0, -1e9)
    return torch.softmax(scores, dim=dim)


class GroupEncoder(nn.Module):
    def __init__(self, n_in, n_games, d=64):
        super().__init__()
        self.player = nn.Sequential(nn.Linear(n_in, d), nn.ReLU(), nn.Linear(d, d))
        self.score = nn.Linear(d, 1)
        self.games = nn.Linear(d, n_games)

    def forward(self, players, mask):
        h = self.player(players)                     # [B, P, d]
        a = masked_softmax(self.score(h).squeeze(-1), mask)  # [B, P]
        group = (a.unsqueeze(-1) * h).sum(1)         # [B, d]
        return self.games(group)
