import torch.nn as nn


class MelodyLM(nn.Module):
    def __init__(self, vocab, dim=64, layers=1, dropout=0.2):
        super().__init__()
        self.encoder = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, num_layers=layers, dropout=dropout if layers > 1 else 0.0)
        self.drop = nn.Dropout(dropout)
        self.decoder = nn.Linear(dim, vocab)
        self.decoder.weight = self.encoder.weight            # weight tying (Press & Wolf, 2017)
        nn.init.uniform_(self.encoder.weight, -0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)

    def forward(self, tokens, hidden=None):                    # tokens: (seq, batch)
        out, hidden = self.rnn(self.drop(self.encoder(tokens)), hidden)
        return self.decoder(self.drop(out)), hidden
