import torch
import torch.nn as nn


class TopicClassifier(nn.Module):
    def __init__(self, buckets, n_topics, hidden=64, dropout=0.2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(buckets, hidden), nn.ReLU(), nn.Dropout(dropout))
        self.head = nn.Linear(hidden, n_topics)

    def forward(self, x):
        return self.head(self.body(x))

    def predict_proba(self, x):
        return torch.softmax(self.forward(x), dim=-1)
