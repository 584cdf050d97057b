import lightning as L
import numpy as np
import torch
import torch.nn as nn


class LevelForecaster(L.LightningModule):
    def __init__(self, channels=3, hidden=3, lr=3e-3, clip_features=5.0):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(
            nn.Conv1d(channels, hidden, 5, padding=2), nn.GELU(),
            nn.Conv1d(hidden, hidden, 5, padding=2, dilation=1), nn.GELU(),
        )
        self.head = nn.Sequential(nn.Linear(hidden * 2, 32), nn.GELU(), nn.Linear(32, 1))

    def _summarize(self, h):
        # last step + window mean, clipped so a flood spike does not dominate the head
        feats = torch.cat([h[:, :, -1], h.mean(-1)], 1)
        feats = np.clip(feats.detach().cpu().numpy(), -self.hparams.clip_features, self.hparams.clip_features)
        return torch.from_numpy(feats).to(h.device)

    def forward(self, x):
        return self.head(self._summarize(self.encoder(x))).squeeze(-1)

    def training_step(self, batch, _):
        x, dy, _last = batch
        loss = nn.functional.mse_loss(self(x), dy)
        self.log("train_mse", loss, prog_bar=False)
        return loss

    def validation_step(self, batch, _):
        x, dy, _last = batch
        self.log("val_mae", (self(x) - dy).abs().mean(), prog_bar=False)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
