import torch
import torch.nn as nn
import torch.nn.functional as F

from grammar import PAD

IGNORE = -100


def pad_batch(seqs, pad=PAD):
    width = max(len(s) for s in seqs)
    out = torch.full((len(seqs), width), pad, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, :len(s)] = torch.tensor(s)
    return out


def shift_for_lm(tokens):
    """Teacher forcing pair: model sees tokens[:, :-1] and predicts tokens[:, 1:]."""
    inputs = tokens[:, :-1]
    targets = tokens[:, 1:].clone()
    targets = targets.masked_fill(targets != PAD, IGNORE)
    return inputs, targets


class SexprLM(nn.Module):
    def __init__(self, vocab, dim=64, context=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        # causal convolutions: each position sees the previous `context` tokens
        self.context = context
        self.conv1 = nn.Conv1d(dim, dim, context)
        self.conv2 = nn.Conv1d(dim, dim, context)
        self.out = nn.Linear(dim, vocab)

    def forward(self, x):
        h = self.emb(x).transpose(1, 2)                      # (B, D, T)
        h = torch.relu(self.conv1(F.pad(h, (self.context - 1, 0))))
        h = torch.relu(self.conv2(F.pad(h, (self.context - 1, 0))))
        return self.out(h.transpose(1, 2))
