import torch
import torch.nn as nn
import torch.nn.functional as F


class SpeakerEncoder(nn.Module):
    """Frame-level 1-D convs, mean+std statistics pooling, linear embedding."""

    def __init__(self, n_bins, channels=64, emb_dim=32):
        super().__init__()
        self.frames = nn.Sequential(
            nn.Conv1d(n_bins, channels, 3, padding=1), nn.ReLU(),
            nn.Conv1d(channels, channels, 3, padding=2, dilation=2), nn.ReLU(),
            nn.Conv1d(channels, channels, 1), nn.ReLU(),
        )
        self.embed = nn.Linear(2 * channels, emb_dim)

    def forward(self, x):                         # x: (batch, bins, frames)
        h = self.frames(x)
        stats = torch.cat([h.mean(dim=2), h.std(dim=2)], dim=1)
        return self.embed(stats)


class AAMSoftmax(nn.Module):
    """Additive angular margin (ArcFace) classification head used for training only."""

    def __init__(self, emb_dim, n_speakers, margin=0.2, scale=20.0):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_speakers, emb_dim) * 0.01)
        self.margin, self.scale = margin, scale

    def forward(self, emb, labels):
        cosine = F.linear(F.normalize(emb, dim=1), F.normalize(self.weight, dim=1))
        theta = torch.acos(cosine.clamp(-1 + 1e-6, 1 - 1e-6))
        target = torch.cos(theta + self.margin)
        onehot = F.one_hot(labels, cosine.size(1)).bool()
        logits = self.scale * torch.where(onehot, target, cosine)
        return F.cross_entropy(logits, labels), cosine
