import torch.nn as nn


class ChordClassifier(nn.Module):
    def __init__(self, n_in=24, n_classes=24, hidden=128, p_drop=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(hidden, n_classes),
        )

    def forward(self, x):
        return self.net(x)

    def predict_proba(self, x):
        return self.forward(x).softmax(dim=-1)
