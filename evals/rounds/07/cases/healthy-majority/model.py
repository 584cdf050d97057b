import torch
import torch.nn as nn
import torch.nn.functional as F


class VoteEncoder(nn.Module):
    def __init__(self, n_cand, d_model, n_heads, n_layers, dropout, max_len):
        super().__init__()
        self.tok = nn.Embedding(n_cand + 1, d_model, padding_idx=0)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, dropout, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.cls = nn.Linear(d_model, n_cand)

    def forward(self, tokens):
        pad = tokens.eq(0)                                   # True = ignore (PyTorch convention)
        pos = torch.arange(tokens.shape[1], device=tokens.device)
        h = self.tok(tokens) + self.pos(pos)[None]
        h = self.encoder(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (self.norm(h) * keep).sum(1) / keep.sum(1)
        return F.log_softmax(self.cls(pooled), dim=-1)      # log-probabilities
