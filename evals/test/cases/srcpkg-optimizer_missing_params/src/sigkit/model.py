from torch import nn


class ConvBlock(nn.Module):
    def __init__(self, c_in, c_out, kernel=7):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel, padding=kernel // 2, bias=False)
        self.norm = nn.BatchNorm1d(c_out)
        self.act = nn.ReLU(inplace=True)
        self.pool = nn.MaxPool1d(2)

    def forward(self, x):
        return self.pool(self.act(self.norm(self.conv(x))))


class SignalNet(nn.Module):
    def __init__(self, n_classes, channels=(16, 32, 64), dropout=0.1):
        super().__init__()
        blocks = []
        c_prev = 1
        for c in channels:
            blocks.append(ConvBlock(c_prev, c))
            c_prev = c
        self.encoder = nn.Sequential(*blocks)
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(dropout),
            nn.Linear(c_prev, 64),
            nn.ReLU(inplace=True),
            nn.Linear(64, n_classes),
        )
        self._init_weights()

    def _init_weights(self):
        for m in self.modules():
            if isinstance(m, nn.Conv1d):
                nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        classifier = self.head[-1]
        nn.init.normal_(classifier.weight, std=0.01)
        nn.init.zeros_(classifier.bias)

    def forward(self, x):
        feats = self.encoder(x).mean(dim=-1)
        return self.head(feats)
