import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, dim, hidden=64, emb_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, emb_dim))

    def forward(self, x):
        return self.net(x)


class Siamese(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def forward(self, x1, x2):
        return self.encoder(x1), self.encoder(x2)

    def distance(self, x1, x2):
        z1, z2 = self(x1, x2)
        return F.pairwise_distance(z1, z2)


class ContrastiveLoss(nn.Module):
    """Hadsell et al. 2006: pull matching pairs together, push non-matching pairs
    out to at least `margin` (hinge form)."""

    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = margin

    def forward(self, z1, z2, same):
        d = F.pairwise_distance(z1, z2)
        pull = same * d.pow(2)
        push = (1.0 - same) * torch.clamp(self.margin - d, max=self.margin)
        return (pull + push).mean()
