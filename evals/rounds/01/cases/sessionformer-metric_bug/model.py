import math

import torch
import torch.nn as nn

from events import PAD


class SessionEncoder(nn.Module):
    def __init__(self, vocab, d_model, n_heads, n_layers, ff_dim, dropout, max_len=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=PAD)
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, ff_dim, dropout, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, 1))

    def forward(self, tokens):
        pad = tokens == PAD                                   # True = ignore this key
        h = self.embed(tokens) * math.sqrt(self.embed.embedding_dim) + self.pe[:tokens.size(1)]
        h = self.encoder(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.head(pooled).squeeze(-1)                  # logits

    @torch.no_grad()
    def predict_proba(self, tokens):
        return torch.sigmoid(self(tokens))
