import torch
import torch.nn as nn
import torch.nn.functional as F


class MultDAE(nn.Module):
    def __init__(self, n_items, hidden=200, dropout=0.5):
        super().__init__()
        self.n_items = n_items
        self.hidden = hidden
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Linear(n_items, hidden)
        self.decoder = nn.Linear(hidden, n_items)
        for layer in (self.encoder, self.decoder):
            nn.init.xavier_uniform_(layer.weight)
            nn.init.normal_(layer.bias, std=0.001)

    def init_popularity_bias(self, item_counts):
        """Start the output layer from the log-popularity prior (faster warm-up)."""
        decoder = nn.Linear(self.hidden, self.n_items)
        nn.init.xavier_uniform_(decoder.weight)
        with torch.no_grad():
            p = item_counts / item_counts.sum()
            decoder.bias.copy_(torch.log(p + 1e-6))
        self.decoder = decoder

    def forward(self, x):
        h = F.normalize(x, dim=1)
        h = self.drop(h)
        h = torch.tanh(self.encoder(h))
        return self.decoder(h)


def multinomial_nll(logits, x):
    return -(F.log_softmax(logits, dim=1) * x).sum(dim=1).mean()
