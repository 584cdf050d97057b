import torch
import torch.nn as nn


class RouteTimeModel(nn.Module):
    """Per-segment MLP -> seconds (softplus), summed over the route."""

    def __init__(self, n_feat, hidden=64):
        super().__init__()
        self.seg = nn.Sequential(nn.Linear(n_feat, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, seg_feats, route_idx, route_mask):
        per_seg = nn.functional.softplus(self.seg(seg_feats)).squeeze(-1) * 60.0   # seconds
        return (per_seg[route_idx] * route_mask).sum(-1)
