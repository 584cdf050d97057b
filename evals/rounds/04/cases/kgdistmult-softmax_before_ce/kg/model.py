import torch
import torch.nn as nn


class DistMult(nn.Module):
    def __init__(self, n_entities, n_relations, dim, dropout=0.1):
        super().__init__()
        self.ent = nn.Embedding(n_entities, dim)
        self.rel = nn.Embedding(n_relations, dim)
        nn.init.normal_(self.ent.weight, std=0.3)
        nn.init.normal_(self.rel.weight, std=0.3)
        self.drop = nn.Dropout(dropout)

    def score_all(self, h, r):
        """Scores of (h, r, t) for every entity t, as a distribution over tails."""
        q = self.drop(self.ent(h) * self.rel(r))
        logits = q @ self.ent.weight.t()
        return logits.softmax(dim=-1)
