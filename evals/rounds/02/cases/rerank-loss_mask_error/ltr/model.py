import torch.nn as nn


class Scorer(nn.Module):
    def __init__(self, n_features, hidden=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, feats):              # [B, D, F] -> [B, D]
        return self.mlp(feats).squeeze(-1)
