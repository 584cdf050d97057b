import torch
import torch.nn as nn


class CallNet(nn.Module):
    """Frame-wise conv stack over mel bins + masked mean/max pooling over time."""

    def __init__(self, n_mels, n_classes, width=64):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU(),
        )
        self.head = nn.Linear(2 * width, n_classes)

    def forward(self, x, lengths):
        h = self.conv(x.transpose(1, 2))                     # (B, C, T)
        mask = torch.arange(h.shape[-1])[None, :] < lengths[:, None]
        mask = mask[:, None, :].float()
        mean = (h * mask).sum(-1) / mask.sum(-1)
        mx = (h - 1e4 * (1 - mask)).amax(-1)
        return self.head(torch.cat([mean, mx], dim=1))
