import torch
import torch.nn as nn


class SetTransformerClassifier(nn.Module):
    def __init__(self, in_dim=2, d_model=32, n_heads=4, n_layers=2, n_classes=4, dropout=0.0):
        super().__init__()
        self.point_embed = nn.Sequential(nn.Linear(in_dim, d_model), nn.GELU(), nn.Linear(d_model, d_model))
        self.cls_token = nn.Parameter(torch.zeros(1, 1, d_model))
        layer = nn.TransformerEncoderLayer(
            d_model, n_heads, dim_feedforward=2 * d_model, dropout=dropout, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_classes)
        nn.init.normal_(self.cls_token, std=0.02)

    def forward(self, points):                       # (B, P, in_dim)
        tokens = self.point_embed(points)            # (B, P, D)
        cls = self.cls_token.expand(points.size(0), -1, -1)
        tokens = torch.cat([cls, tokens], dim=1)     # (B, 1+P, D)
        encoded = self.encoder(tokens)
        return self.head(self.norm(cls[:, 0]))
