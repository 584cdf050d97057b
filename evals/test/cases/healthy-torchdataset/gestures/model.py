import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class GestureGRU(nn.Module):
    def __init__(self, n_in=4, hidden=48, n_classes=6, dropout=0.2):
        super().__init__()
        self.proj = nn.Linear(n_in, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.cls = nn.Linear(hidden, n_classes)

    def forward(self, padded, lengths):
        x = torch.relu(self.proj(padded))
        packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, h_n = self.rnn(packed)
        return self.cls(self.drop(h_n[-1]))
