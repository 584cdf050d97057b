import torch.nn as nn


class BagClassifier(nn.Module):
    def __init__(self, vocab_size, n_classes, embed_dim=64, hidden_dim=128, dropout=0.0):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, mode="mean")
        self.mlp = nn.Sequential(
            nn.Linear(embed_dim, hidden_dim),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden_dim, n_classes),
        )

    def forward(self, tokens, offsets):
        return self.mlp(self.embedding(tokens, offsets))
