import torch
import torch.nn as nn


class CrossingModel(nn.Module):
    def __init__(self, n_piers, n_cont, emb_dim=8, hidden=96):
        super().__init__()
        self.pier_emb = nn.Embedding(n_piers, emb_dim)
        self.encoder = nn.Sequential(
            nn.Linear(2 * emb_dim + n_cont, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, 1)
        self._last_hidden = None

    def forward(self, src, dst, cont):
        z = torch.cat([self.pier_emb(src), self.pier_emb(dst), cont], dim=-1)
        h = self.encoder(z)
        self._last_hidden = h.detach()  # kept for export.dump_embeddings()
        return self.head(self._last_hidden).squeeze(-1)
