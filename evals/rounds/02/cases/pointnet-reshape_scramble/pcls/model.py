import torch.nn as nn


class PointNetLite(nn.Module):
    """Shared MLP on each point (1x1 conv), symmetric max pooling, MLP head."""

    def __init__(self, n_classes, widths=(64, 64, 128), head=64, dropout=0.2):
        super().__init__()
        layers, c_in = [], 3
        for w in widths:
            layers += [nn.Conv1d(c_in, w, kernel_size=1), nn.ReLU()]
            c_in = w
        self.point_mlp = nn.Sequential(*layers)
        self.head = nn.Sequential(
            nn.Linear(c_in, head), nn.ReLU(), nn.Dropout(dropout), nn.Linear(head, n_classes)
        )

    def forward(self, pts):
        b, n, _ = pts.shape
        x = pts.reshape(b, 3, n)                 # (B, N, 3) -> (B, 3, N) for Conv1d
        feats = self.point_mlp(x)                # (B, C, N)
        glob = feats.max(dim=2).values           # order-invariant pooling over points
        return self.head(glob)
