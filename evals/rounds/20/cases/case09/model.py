import torch
import torch.nn as nn
import torch.nn.functional as F


class FlawNet(nn.Module):
    def __init__(self, ch=16, p_drop=0.5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.BatchNorm2d(2 * ch), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.drop = nn.Dropout(p_drop)
        self.fc = nn.Linear(2 * ch * 16, 1)

    def forward(self, x):
        return self.fc(self.drop(self.features(x).flatten(1))).squeeze(-1)


def focal_bce(logits, target, gamma=2.0, alpha=0.75):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    p_t = p * target + (1 - p) * (1 - target)
    a_t = alpha * target + (1 - alpha) * (1 - target)
    return (a_t * (1 - p_t) ** gamma * ce).mean()
