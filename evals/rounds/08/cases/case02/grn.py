import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedLinearUnit(nn.Module):
    def __init__(self, d_in, d_out, dropout=0.0):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(d_in, 2 * d_out)

    def forward(self, x):
        return F.glu(self.fc(self.drop(x)), dim=-1)


class GatedResidualNetwork(nn.Module):
    """GRN(a, c) = LayerNorm(skip(a) + GLU(W1 ELU(W2 a + W3 c + b2)))."""

    def __init__(self, d_in, d_hidden, d_out, d_context=None, dropout=0.1):
        super().__init__()
        self.d_out = d_out
        self.fc2 = nn.Linear(d_in, d_hidden)
        self.ctx = nn.Linear(d_context, d_hidden, bias=False) if d_context else None
        self.fc1 = nn.Linear(d_hidden, d_hidden)
        self.glu = GatedLinearUnit(d_hidden, d_out, dropout)
        self.norm = nn.LayerNorm(d_out)
        self.skip_proj = nn.Linear(d_in, d_out) if d_in != d_out else None

    def forward(self, a, c=None):
        h = self.fc2(a)
        if self.ctx is not None and c is not None:
            h = h + self.ctx(c)
        h = self.fc1(F.elu(h))
        skip = a if self.skip_proj is None else self.skip_proj(a)
        return self.norm(skip + self.glu(h))


def embed_observed(x, d_embed):
    """Per-time-step linear embedding of a real-valued input, (B, T) -> (B, T * d_embed).

    TFT embeds every continuous variable with its own linear layer before the
    variable-selection GRNs; here there is a single observed variable.
    """
    proj = nn.Linear(1, d_embed)
    return proj(x.unsqueeze(-1)).flatten(1)


class StaticCovariateEncoder(nn.Module):
    def __init__(self, n_types, n_regions, d_model):
        super().__init__()
        self.type_emb = nn.Embedding(n_types, 8)
        self.region_emb = nn.Embedding(n_regions, 8)
        self.grn = GatedResidualNetwork(17, d_model, d_model)

    def forward(self, cats, size):
        s = torch.cat([self.type_emb(cats[:, 0]), self.region_emb(cats[:, 1]), size[:, None]], -1)
        return self.grn(s)


class GRNForecaster(nn.Module):
    def __init__(self, past, horizon, n_types=4, n_regions=3, d_model=64, d_embed=4):
        super().__init__()
        self.d_embed = d_embed
        self.static = StaticCovariateEncoder(n_types, n_regions, d_model)
        self.past_grn = GatedResidualNetwork(past * d_embed, d_model, d_model, d_context=d_model)
        self.mid_grn = GatedResidualNetwork(d_model, d_model, d_model, d_context=d_model)
        self.head = nn.Linear(d_model, horizon)

    def forward(self, x_past, cats, size):
        c = self.static(cats, size)
        h = self.past_grn(embed_observed(x_past, self.d_embed), c)
        h = self.mid_grn(h, c)
        return self.head(h)
