import torch
import torch.nn as nn


class KnotLM(nn.Module):
    def __init__(self, vocab, dim=48):
        super().__init__()
        self.vocab = vocab
        self.dim = dim
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)

    def _head(self):
        # vocab can grow when new knot types are added; keep the projection in sync
        self.proj = nn.Linear(self.dim, self.vocab)
        return self.proj

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self._head()(h)
