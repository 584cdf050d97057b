import torch.nn as nn
import torch.nn.functional as F


class MelodyLSTM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=128, layers=1, dropout=0.1):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, layers)          # time-major: (T, B, *)
        self.decoder = nn.Linear(hidden, vocab)
        self.layers, self.hidden = layers, hidden

    def forward(self, tokens, state):
        out, state = self.rnn(self.drop(self.encoder(tokens)), state)
        logits = self.decoder(self.drop(out))
        return F.log_softmax(logits, dim=-1), state

    def init_state(self, bsz):
        w = next(self.parameters())
        return (w.new_zeros(self.layers, bsz, self.hidden), w.new_zeros(self.layers, bsz, self.hidden))
