import torch
import torch.nn as nn


class ColumnEncoder(nn.Module):
    """Treats image rows as channels and convolves along the width."""

    def __init__(self, height, channels=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(height, channels, 3, padding=1), nn.ReLU(),
            nn.Conv1d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Conv1d(channels, channels, 3, padding=1), nn.ReLU(),
        )

    def forward(self, img):          # [B, H, W]
        return self.net(img)         # [B, C, W]


class SlotAttentionDecoder(nn.Module):
    def __init__(self, d, n_slots, n_classes=10):
        super().__init__()
        self.queries = nn.Parameter(torch.randn(n_slots, d) * 0.1)
        self.attn = nn.MultiheadAttention(d, 4)
        self.out = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, n_classes))

    def forward(self, memory):       # memory: [T, B, d] (time-major, like the GRU)
        q = self.queries[:, None, :].expand(-1, memory.shape[1], -1)
        ctx, _ = self.attn(q, memory, memory)       # [S, B, d]
        return self.out(ctx).transpose(0, 1)        # [B, S, n_classes]


class StripReader(nn.Module):
    def __init__(self, height=8, channels=48, hidden=48, n_slots=4):
        super().__init__()
        self.encoder = ColumnEncoder(height, channels)
        self.rnn = nn.GRU(channels, hidden // 2, bidirectional=True)
        self.decoder = SlotAttentionDecoder(hidden, n_slots)

    def forward(self, img):
        feats = self.encoder(img)                   # [B, C, W]
        B, C, W = feats.shape
        seq = feats.reshape(W, B, C)                # time-major for the GRU
        states, _ = self.rnn(seq)                   # [W, B, hidden]
        return self.decoder(states)
