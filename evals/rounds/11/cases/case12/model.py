import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenLexiconClassifier(nn.Module):
    """Random, fixed word vectors (a cheap stand-in for a pretrained lexicon),
    a trainable projection over position-aware pooled features, and a linear head.
    """

    def __init__(self, vocab_size, emb_dim, proj_dim, n_classes, max_len=12):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        nn.init.normal_(self.embed.weight, std=1.0)
        # the lexicon is deliberately not trained
        self.embed.weight.requires_grad_(False)
        self.max_len = max_len
        self.proj = nn.Linear(emb_dim * 3, proj_dim)
        self.head = nn.Linear(proj_dim, n_classes)

    def forward(self, ids):
        e = self.embed(ids)                                   # (B, L, E)
        mask = (ids != 0).unsqueeze(-1).float()
        mean = (e * mask).sum(1) / mask.sum(1).clamp_min(1)
        first = e[:, 0]                                      # question word usually leads
        maxp = e.masked_fill(mask == 0, -1e4).max(1).values
        h = torch.tanh(self.proj(torch.cat([mean, first, maxp], dim=-1)))
        return F.log_softmax(self.head(h), dim=-1)
