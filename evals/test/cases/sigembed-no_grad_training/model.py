import torch
import torch.nn as nn
import torch.nn.functional as F


class SignalEncoder(nn.Module):
    def __init__(self, channels=32, emb_dim=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, channels, 9, padding=4),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(channels, channels, 9, padding=4),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(channels, channels, 9, padding=4),
            nn.ReLU(),
        )
        self.proj = nn.Linear(channels * 2, emb_dim)

    def forward(self, x):                     # x: (B, 1, L)
        h = self.conv(x)                      # (B, C, L/4)
        pooled = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.proj(pooled)


class SignalClassifier(nn.Module):
    def __init__(self, n_classes, emb_dim=16):
        super().__init__()
        self.encoder = SignalEncoder(emb_dim=emb_dim)
        self.head = nn.Linear(emb_dim, n_classes)
        self.scale = nn.Parameter(torch.tensor(10.0))

    @torch.no_grad()
    def embed(self, x):
        return F.normalize(self.encoder(x), dim=-1)

    def forward(self, x):
        return self.head(self.scale * self.embed(x))
