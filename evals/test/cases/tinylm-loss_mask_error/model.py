import torch.nn as nn


class GRULanguageModel(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, hidden=96, pad_id=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_id)
        self.gru = nn.GRU(emb_dim, hidden, batch_first=True)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, tokens):                     # (B, T)
        states, _ = self.gru(self.embedding(tokens))
        return self.lm_head(states)                # (B, T, V)
