import torch
from torch import nn


class GraphGRU(nn.Module):
    """Per-sensor GRU (weights shared across sensors) fed with the sensor's own
    speed and its graph-aggregated neighbourhood, temporal attention readout."""

    def __init__(self, adj, hidden=32, horizon_out=1):
        super().__init__()
        self.register_buffer("adj", torch.as_tensor(adj))
        self.gru = nn.GRU(input_size=2, hidden_size=hidden)        # time-major
        self.score = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.head = nn.Linear(hidden, horizon_out)

    def forward(self, x):
        # x: [B, T, N] speeds (already scaled)
        B, T, N = x.shape
        mu = x.mean(dim=1, keepdim=True)
        x = x - mu
        neigh = torch.einsum("nm,btm->btn", self.adj, x)
        feats = torch.stack([x, neigh], dim=-1)                        # [B, T, N, 2]
        feats = feats.permute(1, 0, 2, 3).reshape(T, B * N, 2)          # [T, B*N, 2]
        states, _ = self.gru(feats)                                     # [T, B*N, H]
        w = torch.softmax(self.score(states).squeeze(-1), dim=-1)       # [T, B*N]
        context = (w.unsqueeze(-1) * states).sum(0)                     # [B*N, H]
        out = self.head(context).reshape(B, N)
        return out + mu.squeeze(1)
