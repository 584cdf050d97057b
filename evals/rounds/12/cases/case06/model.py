import numpy as np
import torch
from torch import nn

from nli_data import PAD


def masked_mean(states, mask):
    """Average token states over real (non-pad) positions."""
    h = states.detach().cpu().numpy().copy()
    h[~mask.cpu().numpy()] = np.nan
    return torch.from_numpy(np.nanmean(h, axis=1)).to(states.device)


class SentenceEncoder(nn.Module):
    def __init__(self, vocab, emb_dim=64, hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb_dim, padding_idx=PAD)
        self.proj = nn.Sequential(nn.Linear(emb_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden))

    def forward(self, tokens):
        states = self.proj(self.emb(tokens))
        return masked_mean(states, tokens != PAD)


class PairClassifier(nn.Module):
    """Shared encoder for both sentences; [u, v, |u-v|, u*v] -> MLP."""

    def __init__(self, vocab, n_labels=3, hidden=64):
        super().__init__()
        self.encoder = SentenceEncoder(vocab, hidden=hidden)
        self.classifier = nn.Sequential(nn.Linear(4 * hidden, 64), nn.ReLU(), nn.Linear(64, n_labels))

    def forward(self, premise, hypothesis):
        u = self.encoder(premise)
        v = self.encoder(hypothesis)
        return self.classifier(torch.cat([u, v, (u - v).abs(), u * v], dim=-1))
