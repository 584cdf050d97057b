import torch
import torch.nn as nn
import torch.nn.functional as F

from corpus import PAD


class Tower(nn.Module):
    """Mean of (shared, frozen) word vectors followed by a trainable MLP."""

    def __init__(self, word_vectors: nn.Embedding, out_dim=64, hidden=128):
        super().__init__()
        self.words = word_vectors
        self.mlp = nn.Sequential(nn.Linear(word_vectors.embedding_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, out_dim))

    def forward(self, ids):
        mask = (ids != PAD).unsqueeze(-1).float()
        pooled = (self.words(ids) * mask).sum(1) / mask.sum(1).clamp_min(1.0)
        return F.normalize(self.mlp(pooled), dim=-1)


class DualEncoder(nn.Module):
    def __init__(self, pretrained, out_dim=64, temperature=0.05):
        super().__init__()
        self.words = nn.Embedding.from_pretrained(torch.from_numpy(pretrained), padding_idx=PAD)
        self.words.weight.requires_grad_(False)        # keep the pre-trained vectors fixed
        self.query_tower = Tower(self.words, out_dim)
        self.doc_tower = Tower(self.words, out_dim)
        self.register_buffer("inv_temp", torch.tensor(1.0 / temperature))

    def forward(self, queries, docs):
        q, d = self.query_tower(queries), self.doc_tower(docs)
        return q @ d.t() * self.inv_temp                # (B, B): row i's positive is column i
