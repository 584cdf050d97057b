import torch
import torch.nn as nn


class EmbeddingMLP(nn.Module):
    def __init__(self, cardinalities, n_numeric, emb_dim=6, hidden=64, dropout=0.1):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(c, emb_dim) for c in cardinalities)
        d_in = emb_dim * len(cardinalities) + n_numeric
        self.mlp = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, 1),
        )

    def forward(self, cats, nums):
        embs = [emb(cats[:, i]) for i, emb in enumerate(self.embeddings)]
        h = torch.cat(embs + [nums], dim=1)
        return self.mlp(h).squeeze(1)
