import torch
import torch.nn as nn
import torch.nn.functional as F

class CNNEncoder(nn.Module):
    def __init__(self, vocab, dim=64, widths=(1, 2)):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(dim, dim, w, padding=w - 1) for w in widths])
        self.proj = nn.Linear(dim * len(widths), dim)

    def forward(self, tokens):
        e = self.emb(tokens).transpose(1, 2)
        pooled = [torch.relu(conv(e)).amax(dim=2) for conv in self.convs]
        return self.proj(torch.cat(pooled, dim=1))

class ParaModel(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.encoder = CNNEncoder(vocab)
        self.log_scale = nn.Parameter(torch.tensor(1.0))
        self.bias = nn.Parameter(torch.tensor(0.0))

    def embed(self, tokens):
        """Unit-norm sentence vectors (what goes into the lookup index)."""
        return F.normalize(self.encoder(tokens), dim=-1).detach()

    def forward(self, a, b):
        ea, eb = self.embed(a), self.embed(b)
        return self.log_scale.exp() * (ea * eb).sum(-1) + self.bias
