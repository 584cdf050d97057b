import torch
import torch.nn as nn


class KoopmanAE(nn.Module):
    def __init__(self, history, latent, hidden):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(2 * history, hidden), nn.ELU(),
            nn.Linear(hidden, hidden), nn.ELU(),
            nn.Linear(hidden, latent),
        )
        self.decoder = nn.Sequential(
            nn.Linear(latent, hidden), nn.ELU(),
            nn.Linear(hidden, hidden), nn.ELU(),
            nn.Linear(hidden, 2),
        )
        self.K = nn.Linear(latent, latent, bias=False)
        nn.init.eye_(self.K.weight)

    def encode(self, window):
        return self.encoder(window.flatten(1))

    def forward(self, window, horizon):
        z = self.encode(window)
        recon = self.decoder(z)
        zs, preds = [], []
        for _ in range(horizon):
            z = self.K(z)
            zs.append(z)
            preds.append(self.decoder(z))
        return recon, torch.stack(preds, 1), torch.stack(zs, 1)
