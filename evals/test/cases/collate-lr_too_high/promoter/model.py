import torch
from torch import nn

from promoter.reads import PAD, TOKEN


class ReadClassifier(nn.Module):
    """Embedding -> two conv layers -> masked max-pool over positions -> logit."""

    def __init__(self, emb_dim=16, channels=64, kernel=5):
        super().__init__()
        self.embed = nn.Embedding(len(TOKEN) + 1, emb_dim, padding_idx=PAD)
        self.conv1 = nn.Conv1d(emb_dim, channels, kernel, padding=kernel // 2)
        self.conv2 = nn.Conv1d(channels, channels, kernel, padding=kernel // 2)
        self.act = nn.GELU()
        self.out = nn.Linear(channels, 1)

    def forward(self, ids, lengths):
        x = self.embed(ids).transpose(1, 2)
        x = self.act(self.conv1(x))
        x = self.act(self.conv2(x))
        positions = torch.arange(ids.size(1), device=ids.device)
        valid = positions[None, :] < lengths[:, None]
        x = x.masked_fill(~valid[:, None, :], float("-inf"))
        pooled = x.max(dim=2).values
        return self.out(pooled).squeeze(-1)
