import torch
import torch.nn as nn


class CellNet(nn.Module):
    def __init__(self, n_classes=3, ch=8):
        super().__init__()
        self.body = nn.Sequential(
            nn.BatchNorm3d(1),  # input normalisation, learned
            nn.Conv3d(1, ch, 3, padding=1), nn.BatchNorm3d(ch), nn.ReLU(), nn.MaxPool3d(2),
            nn.Conv3d(ch, 2 * ch, 3, padding=1), nn.BatchNorm3d(2 * ch), nn.ReLU(),
            nn.AdaptiveAvgPool3d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(2 * ch, n_classes)

    def forward(self, x):
        return self.fc(self.body(x))


def predict_with_flips(model, x):
    """Test-time augmentation: average logits over the identity and the three axis flips."""
    was_training = model.training
    with torch.no_grad():
        logits = model(x)
        for dim in (2, 3, 4):
            logits = logits + model(torch.flip(x, dims=(dim,)))
    model.train()
    return logits / 4
