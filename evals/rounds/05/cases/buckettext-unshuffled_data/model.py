import torch
import torch.nn as nn


class ConvTextClassifier(nn.Module):
    """Embedding -> parallel 1-D convolutions (widths 2,3,4) -> masked max over time."""

    def __init__(self, vocab, n_classes, dim=32, channels=32, widths=(2, 3, 4), pad_id=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.convs = nn.ModuleList(nn.Conv1d(dim, channels, w, padding=w // 2) for w in widths)
        self.drop = nn.Dropout(0.2)
        self.out = nn.Linear(channels * len(widths), n_classes)

    def forward(self, tokens, lengths):
        x = self.emb(tokens).transpose(1, 2)                       # (B, D, T)
        T = tokens.shape[1]
        pooled = []
        for conv in self.convs:
            h = torch.relu(conv(x))[:, :, :T]
            valid = torch.arange(T)[None, :] < lengths[:, None]
            h = h.masked_fill(~valid[:, None, :], float("-inf"))
            pooled.append(h.max(dim=2).values)
        return self.out(self.drop(torch.cat(pooled, dim=1)))
