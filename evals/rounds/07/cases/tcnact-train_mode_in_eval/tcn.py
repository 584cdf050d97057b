import torch.nn as nn


class TemporalBlock(nn.Module):
    def __init__(self, cin, cout, dilation, dropout):
        super().__init__()
        pad = 2 * dilation
        self.net = nn.Sequential(
            nn.Conv1d(cin, cout, 5, padding=pad, dilation=dilation), nn.BatchNorm1d(cout), nn.ReLU(), nn.Dropout(dropout),
            nn.Conv1d(cout, cout, 5, padding=pad, dilation=dilation), nn.BatchNorm1d(cout), nn.ReLU(), nn.Dropout(dropout),
        )
        self.down = nn.Conv1d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x):
        return self.net(x) + self.down(x)


class TCN(nn.Module):
    def __init__(self, in_ch=6, channels=(32, 32, 48), n_classes=5, dropout=0.3):
        super().__init__()
        blocks, c = [], in_ch
        for i, ch in enumerate(channels):
            blocks.append(TemporalBlock(c, ch, 2 ** i, dropout))
            c = ch
        self.body = nn.Sequential(*blocks)
        self.head = nn.Linear(c, n_classes)

    def forward(self, x):
        return self.head(self.body(x).mean(-1))
