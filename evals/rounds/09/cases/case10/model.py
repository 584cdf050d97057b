import torch
import torch.nn as nn
import torch.nn.functional as F


class BracketClassifier(nn.Module):
    def __init__(self, max_len, d_model, heads, layers, dropout):
        super().__init__()
        self.tok = nn.Embedding(3, d_model, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(max_len, d_model) * 0.02)  # learned positions
        layer = nn.TransformerEncoderLayer(d_model, heads, 4 * d_model, dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, 2)

    def forward(self, ids, pad_mask):
        h = self.tok(ids) + self.pos[: ids.shape[1]]
        h = self.encoder(h, src_key_padding_mask=pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return F.log_softmax(self.head(pooled), dim=-1)
