import math

import torch
import torch.nn as nn


class FeatureTokenizer(nn.Module):
    """x[:, j] -> x[:, j] * W[j] + b[j], one d_token vector per numeric feature."""

    def __init__(self, n_features, d_token):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_features, d_token))
        self.bias = nn.Parameter(torch.empty(n_features, d_token))
        bound = 1 / math.sqrt(d_token)
        nn.init.uniform_(self.weight, -bound, bound)
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        batch, n_features = x.shape
        # feature-major so that the per-feature bias broadcasts over the batch
        tokens = torch.einsum("bf,fd->fbd", x, self.weight) + self.bias[:, None, :]
        return tokens.reshape(batch, n_features, -1)


class FTTransformer(nn.Module):
    def __init__(self, n_features, n_classes, d_token=32, n_heads=4, n_layers=2, ffn_mult=2, dropout=0.1):
        super().__init__()
        self.tokenizer = FeatureTokenizer(n_features, d_token)
        self.cls = nn.Parameter(torch.zeros(1, 1, d_token))
        layer = nn.TransformerEncoderLayer(d_token, n_heads, dim_feedforward=ffn_mult * d_token,
                                           dropout=dropout, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_token)
        self.head = nn.Linear(d_token, n_classes)

    def forward(self, x):
        tokens = self.tokenizer(x)
        tokens = torch.cat([self.cls.expand(len(x), -1, -1), tokens], dim=1)
        h = self.encoder(tokens)
        return self.head(torch.relu(self.norm(h[:, 0])))
