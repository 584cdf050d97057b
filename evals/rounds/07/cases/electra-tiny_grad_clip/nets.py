import torch
import torch.nn as nn


class ConvEncoder(nn.Module):
    def __init__(self, vocab, dim, seq_len, layers=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(seq_len, dim) * 0.02)
        self.convs = nn.ModuleList(nn.Conv1d(dim, dim, 5, padding=2) for _ in range(layers))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))

    def forward(self, tokens):
        h = self.tok(tokens) + self.pos
        for conv, norm in zip(self.convs, self.norms):
            h = norm(h + torch.relu(conv(h.transpose(1, 2)).transpose(1, 2)))
        return h


class Generator(nn.Module):
    def __init__(self, vocab, dim, seq_len):
        super().__init__()
        self.enc = ConvEncoder(vocab, dim, seq_len, layers=2)
        self.lm = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.lm(self.enc(tokens))


class Discriminator(nn.Module):
    def __init__(self, vocab, dim, seq_len):
        super().__init__()
        self.enc = ConvEncoder(vocab, dim, seq_len, layers=3)
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, 1))

    def forward(self, tokens):
        return self.head(self.enc(tokens)).squeeze(-1)
