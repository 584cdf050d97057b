import lightning as L
import torch
import torch.nn.functional as F
from torch import nn


class ConvBlock(nn.Sequential):
    def __init__(self, c_in, c_out, k=5):
        super().__init__(
            nn.Conv1d(c_in, c_out, k, padding=k // 2, bias=False),
            nn.BatchNorm1d(c_out),
            nn.ReLU(inplace=True),
        )


class ActivityNet(L.LightningModule):
    def __init__(self, n_classes: int = 6, channels: int = 32, lr: float = 2e-3, max_epochs: int = 8):
        super().__init__()
        self.save_hyperparameters()
        self.features = nn.Sequential(
            ConvBlock(3, channels),
            nn.MaxPool1d(2),
            ConvBlock(channels, channels * 2),
            nn.MaxPool1d(2),
            ConvBlock(channels * 2, channels * 2, k=3),
            nn.AdaptiveAvgPool1d(1),
        )
        self.dropout = nn.Dropout(0.2)
        self.classifier = nn.Linear(channels * 2, n_classes)

    def forward(self, x):
        h = self.features(x).flatten(1)
        return F.log_softmax(self.classifier(self.dropout(h)), dim=-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        log_probs = self(x)
        loss = F.nll_loss(log_probs, y)
        acc = (log_probs.detach().argmax(dim=-1) == y).float().mean()
        self.log("train_loss", loss, on_step=False, on_epoch=True, prog_bar=True)
        self.log("train_acc", acc, on_step=False, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        log_probs = self(x)
        loss = F.cross_entropy(log_probs, y)
        acc = (log_probs.argmax(dim=-1) == y).float().mean()
        self.log("val_loss", loss, prog_bar=True)
        self.log("val_acc", acc, prog_bar=True)

    @torch.no_grad()
    def predict_activity(self, x):
        self.eval()
        return self(x).exp()

    def configure_optimizers(self):
        optimizer = torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=self.hparams.max_epochs)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "epoch"}}
