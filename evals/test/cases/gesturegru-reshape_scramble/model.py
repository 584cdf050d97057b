import torch.nn as nn


class GestureGRU(nn.Module):
    def __init__(self, n_channels, seq_len, hidden, n_classes):
        super().__init__()
        self.rnn = nn.GRU(n_channels, hidden, num_layers=1)
        self.readout = nn.Sequential(
            nn.Linear(seq_len * hidden, 64),
            nn.ReLU(),
            nn.Linear(64, n_classes),
        )

    def forward(self, x):
        batch_size = x.size(0)
        out, _ = self.rnn(x.transpose(0, 1))    # (T, B, H)
        states = out.reshape(batch_size, -1)    # (B, T*H)
        return self.readout(states)
