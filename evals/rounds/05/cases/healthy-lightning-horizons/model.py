import lightning as L
import torch
import torch.nn as nn

QUANTILES = (0.1, 0.5, 0.9)


def pinball(pred, target, quantiles=QUANTILES):
    """pred (B, H, Q), target (B, H)."""
    q = torch.tensor(quantiles)
    diff = target.unsqueeze(-1) - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


class QuantileForecaster(L.LightningModule):
    def __init__(self, context=48, horizon=6, hidden=64, lr=2e-3):
        super().__init__()
        self.save_hyperparameters()
        self.body = nn.Sequential(nn.Linear(context, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU())
        self.heads = nn.ModuleList(nn.Linear(hidden, horizon) for _ in QUANTILES)

    def forward(self, x):
        h = self.body(x)
        q = torch.stack([head(h) for head in self.heads], -1)
        # sort along the quantile axis so the 10/50/90 outputs never cross
        return q.sort(dim=-1).values

    def training_step(self, batch, _):
        x, y = batch
        loss = pinball(self(x), y)
        self.log("train_pinball", loss.item(), prog_bar=False)
        return loss

    def validation_step(self, batch, _):
        x, y = batch
        self.log("val_pinball", pinball(self(x), y))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
