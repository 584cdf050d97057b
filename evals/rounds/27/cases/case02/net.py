import torch
import torch.nn as nn


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU())


class TinySeg(nn.Module):
    """Two-scale encoder/decoder, no skip-level tricks."""

    def __init__(self, cin=4, n_classes=3, w=16):
        super().__init__()
        self.enc1 = block(cin, w)
        self.down = nn.MaxPool2d(2)
        self.enc2 = block(w, w * 2)
        self.up = nn.ConvTranspose2d(w * 2, w, 2, stride=2)
        self.dec = block(w * 2, w)
        self.cls = nn.Conv2d(w, n_classes, 1)

    def forward(self, x):
        a = self.enc1(x)
        b = self.enc2(self.down(a))
        return self.cls(self.dec(torch.cat([a, self.up(b)], 1)))
