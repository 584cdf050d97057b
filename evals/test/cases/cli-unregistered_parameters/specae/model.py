import torch
import torch.nn as nn
import torch.nn.functional as F


class SpectrumAutoencoder(nn.Module):
    def __init__(self, n_bins=64, hidden=(48, 24), latent_dim=6):
        super().__init__()
        enc = []
        dims = [n_bins, *hidden]
        for a, b in zip(dims[:-1], dims[1:]):
            enc += [nn.Linear(a, b), nn.ReLU()]
        enc.append(nn.Linear(dims[-1], latent_dim))
        self.encoder = nn.Sequential(*enc)

        dec_dims = [latent_dim, *reversed(hidden), n_bins]
        self.decoder_layers = []
        for a, b in zip(dec_dims[:-1], dec_dims[1:]):
            self.decoder_layers.append(nn.Linear(a, b))

    def encode(self, x):
        return self.encoder(x)

    def decode(self, z):
        h = z
        last = len(self.decoder_layers) - 1
        for i, layer in enumerate(self.decoder_layers):
            h = layer(h)
            if i < last:
                h = F.relu(h)
        return h

    def forward(self, x):
        return self.decode(self.encode(x))
