from torch import nn


def grip_cnn(width=24, n_classes=5):
    return nn.Sequential(
        nn.Conv1d(6, width, 7, padding=3), nn.ReLU(),
        nn.Conv1d(width, width, 7, padding=3, stride=2), nn.ReLU(),
        nn.AdaptiveAvgPool1d(1), nn.Flatten(),
        nn.Linear(width, n_classes),
    )
