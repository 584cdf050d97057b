import torch
from torch import nn

from corpus import PAD


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab, dim=64, hidden=64, n_classes=3, dropout=0.5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.drop_in = nn.Dropout(dropout)
        self.ff = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Dropout(dropout),
                                nn.Linear(hidden, n_classes))

    def forward(self, tokens):
        mask = (tokens != PAD).float().unsqueeze(-1)
        summed = (self.emb(tokens) * mask).sum(1)
        return self.ff(self.drop_in(summed))
