import torch.nn as nn


class ModClassifier(nn.Module):
    def __init__(self, n_classes, width=32, embed_dim=32):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(2, width // 2, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width // 2, width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(),
            nn.Linear(width, embed_dim), nn.ReLU(),
        )
        self.head = nn.Linear(embed_dim, n_classes)

    def forward(self, x):
        return self.head(self.encoder(x))
