import torch
import torch.nn as nn


def conv_backbone(width, feat=128):
    return nn.Sequential(
        nn.Conv2d(1, width // 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),      # 12
        nn.Conv2d(width // 2, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # 6
        nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
        nn.Flatten(),
        nn.Linear(width * 36, feat), nn.ReLU(),
    )


class TinyDetector(nn.Module):
    def __init__(self, num_classes, width=16, feat=128):
        super().__init__()
        self.width, self.feat = width, feat
        self.backbone = conv_backbone(width, feat)
        self.cls_head = nn.Linear(feat, num_classes)
        self.box_head = nn.Linear(feat, 4)

    def set_width(self, width):
        """Heads only see the pooled feature vector, so the backbone can be swapped freely."""
        if width != self.width:
            self.width = width
            self.backbone = conv_backbone(width, self.feat)

    def forward(self, x):
        f = self.backbone(x)
        return self.cls_head(f), torch.sigmoid(self.box_head(f))
