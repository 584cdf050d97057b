import torch
from torch import nn


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU(inplace=True))


class TinySegNet(nn.Module):
    """Two-level encoder-decoder with one skip connection."""
    def __init__(self, ch=12):
        super().__init__()
        self.enc1 = block(1, ch)
        self.enc2 = block(ch, 2 * ch)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(2 * ch, ch, 2, stride=2)
        self.dec = block(2 * ch, ch)
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.out(d)
