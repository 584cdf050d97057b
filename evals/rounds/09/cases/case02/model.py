import torch
import torch.nn as nn


class CharCNNTagger(nn.Module):
    def __init__(self, n_chars, n_tags, char_dim=24, word_dim=64):
        super().__init__()
        self.char_emb = nn.Embedding(n_chars, char_dim, padding_idx=0)
        self.char_conv = nn.Conv1d(char_dim, word_dim, kernel_size=3, padding=1)
        self.ctx = nn.Conv1d(word_dim, word_dim, kernel_size=3, padding=1)
        self.out = nn.Linear(2 * word_dim, n_tags)

    def forward(self, chars):
        # chars: (B, T, C) character ids, 0 = padding
        b, t, c = chars.shape
        e = self.char_emb(chars.view(b * t, c)).transpose(1, 2)      # (B*T, E, C)
        w = torch.relu(self.char_conv(e)).max(dim=2).values.view(b, t, -1)
        h = torch.relu(self.ctx(w.transpose(1, 2))).transpose(1, 2)
        return self.out(torch.cat([w, h], dim=-1))                    # (B, T, n_tags)
