import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size, n_tags, pad_id, emb_dim=32, hidden=48):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_id)
        self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.2)
        self.out = nn.Linear(2 * hidden, n_tags)

    def forward(self, token_ids, lengths):           # (B, T), (B,)
        emb = self.dropout(self.embed(token_ids))
        packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)
        packed_out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(packed_out, batch_first=True, total_length=token_ids.size(1))
        return self.out(self.dropout(out))          # (B, T, n_tags)
