import lightning as L
import torch
import torch.nn.functional as F
from torch import nn


class ChurnClassifier(L.LightningModule):
    def __init__(
        self, n_features: int = 12, hidden: int = 64, lr: float = 5e-3, weight_decay: float = 1e-4
    ):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Linear(hidden, hidden),
            nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def _shared_step(self, batch):
        features, churned = batch
        logits = self(features)
        loss = F.binary_cross_entropy_with_logits(churned, logits)
        acc = ((logits > 0).float() == churned).float().mean()
        return loss, acc

    def training_step(self, batch, batch_idx):
        loss, acc = self._shared_step(batch)
        self.log("train_loss", loss, on_step=False, on_epoch=True)
        self.log("train_acc", acc, on_step=False, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx):
        loss, acc = self._shared_step(batch)
        self.log("val_loss", loss)
        self.log("val_acc", acc)

    def configure_optimizers(self):
        return torch.optim.AdamW(
            self.parameters(), lr=self.hparams.lr, weight_decay=self.hparams.weight_decay
        )
