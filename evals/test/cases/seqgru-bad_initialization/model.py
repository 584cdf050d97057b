from torch import nn


class LoadForecaster(nn.Module):
    def __init__(self, n_feeders=8, hidden=48, num_layers=1):
        super().__init__()
        self.gru = nn.GRU(n_feeders, hidden, num_layers=num_layers, batch_first=True)
        self.head = nn.Linear(hidden, n_feeders)
        self._init_weights()

    def _init_weights(self):
        for name, param in self.named_parameters():
            if "weight_hh" in name:
                nn.init.orthogonal_(param)
            else:
                nn.init.zeros_(param)

    def forward(self, x, hidden=None):
        out, hidden = self.gru(x, hidden)
        return self.head(out), hidden
