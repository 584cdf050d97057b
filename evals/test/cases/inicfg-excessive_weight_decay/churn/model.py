import torch
import torch.nn as nn

from .table import CATEGORICAL, NUMERIC


class ChurnNet(nn.Module):
    def __init__(self, embedding_dim=8, hidden=(64, 32), dropout=0.1):
        super().__init__()
        self.embeddings = nn.ModuleDict({
            name: nn.Embedding(card, embedding_dim) for name, card in CATEGORICAL.items()
        })
        width = embedding_dim * len(CATEGORICAL) + len(NUMERIC)
        layers = []
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(dropout)]
            width = h
        layers.append(nn.Linear(width, 1))
        self.mlp = nn.Sequential(*layers)

    def forward(self, cats, nums):
        embedded = [emb(cats[:, i]) for i, emb in enumerate(self.embeddings.values())]
        return self.mlp(torch.cat(embedded + [nums], dim=1)).squeeze(1)
