import torch.nn as nn


class BagClassifier(nn.Module):
    def __init__(self, vocab_size, n_classes, emb_dim=32, hidden=64):
        super().__init__()
        self.bag = nn.EmbeddingBag(vocab_size, emb_dim, mode="mean", padding_idx=0)
        self.head = nn.Sequential(nn.Linear(emb_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, tokens):
        # tokens: (B, T) padded with 0; padding is excluded from the mean
        return self.head(self.bag(tokens))
