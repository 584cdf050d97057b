import torch
import torch.nn as nn


class TicketTagger(nn.Module):
    """Two-layer MLP over TF-IDF vectors, one independent output per tag."""

    def __init__(self, vocab_size, n_tags, hidden=256, dropout=0.3):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(vocab_size, hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(dropout),
        )
        self.classifier = nn.Linear(hidden, n_tags)

    def forward(self, x):
        return self.classifier(self.encoder(x))

    def predict_proba(self, x):
        return torch.sigmoid(self(x))
