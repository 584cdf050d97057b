import torch
import torch.nn as nn


def block(ci, co):
    return nn.Sequential(nn.Conv2d(ci, co, 3, padding=1), nn.ReLU(), nn.Conv2d(co, co, 3, padding=1), nn.ReLU())


class TinySegNet(nn.Module):
    def __init__(self, n_classes, w=16):
        super().__init__()
        self.enc1 = block(1, w)
        self.enc2 = block(w, 2 * w)
        self.up = nn.ConvTranspose2d(2 * w, w, 2, stride=2)
        self.dec = block(2 * w, w)
        self.cls = nn.Conv2d(w, n_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(nn.functional.max_pool2d(e1, 2))
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.cls(d)
