import torch
from torch import nn


class ConvEncoder(nn.Module):
    def __init__(self, dim, layers):
        super().__init__()
        self.convs = nn.ModuleList(
            nn.Conv1d(dim, dim, kernel_size=3, padding=2 ** i, dilation=2 ** i) for i in range(layers)
        )
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(layers))

    def forward(self, h):  # h: (B, T, D)
        for conv, norm in zip(self.convs, self.norms):
            h = norm(h + torch.relu(conv(h.transpose(1, 2)).transpose(1, 2)))
        return h


class SpanReader(nn.Module):
    def __init__(self, vocab, emb, hidden, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        self.inp = nn.Linear(emb, hidden)
        self.encoder = ConvEncoder(hidden, layers)
        self.q_proj = nn.Linear(emb, hidden)
        self.fuse = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU())
        self.start_head = nn.Linear(hidden, 1)
        self.end_head = nn.Linear(hidden, 1)

    def forward(self, ctx, q):
        mask = ctx.ne(0)
        h = self.encoder(self.inp(self.embed(ctx)))
        qv = self.q_proj(self.embed(q)).unsqueeze(1).expand_as(h)
        z = self.fuse(torch.cat([h * qv, h], dim=-1))
        start = self.start_head(z).squeeze(-1).masked_fill(~mask, -1e4)
        end = self.end_head(z).squeeze(-1).masked_fill(~mask, -1e4)
        return start, end

    @torch.no_grad()
    def decode(self, ctx, q, max_span=6):
        start, end = self(ctx, q)
        # best (s, e) with s <= e < s + max_span
        scores = start.unsqueeze(2) + end.unsqueeze(1)
        T = ctx.size(1)
        idx = torch.arange(T)
        valid = (idx.view(1, -1) >= idx.view(-1, 1)) & (idx.view(1, -1) < idx.view(-1, 1) + max_span)
        scores = scores.masked_fill(~valid, -1e9)
        flat = scores.flatten(1).argmax(1)
        return flat // T, flat % T
