import torch.nn as nn


class ThrowerGRU(nn.Module):
    def __init__(self, n_channels=6, hidden=48, n_players=6):
        super().__init__()
        self.inp = nn.Linear(n_channels, hidden)
        self.gru = nn.GRU(hidden, hidden)          # time-major (T, B, H)
        self.head = nn.Linear(hidden, n_players)

    def forward(self, x):
        # x: (B, T, C) from the loader
        b, t, c = x.shape
        seq = x.reshape(t, b, c)
        h, _ = self.gru(self.inp(seq).relu())
        return self.head(h[-1])
