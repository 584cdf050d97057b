import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


class FlowClassifier(L.LightningModule):
    def __init__(self, n_features, n_classes, hidden=128, dropout=0.3, lr=3e-3, weight_decay=1e-4):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(
            nn.BatchNorm1d(n_features),            # raw counts/bytes: the input BN does the scaling
            nn.Linear(n_features, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden, n_classes),
        )
        self.val_correct = 0
        self.val_total = 0

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def on_validation_epoch_start(self):
        self.val_correct = self.val_total = 0

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.val_correct += (logits.argmax(-1) == y).sum().item()
        self.val_total += len(y)
        self.log("val_loss", F.cross_entropy(logits, y))

    def on_validation_epoch_end(self):
        self.log("val_acc", self.val_correct / max(1, self.val_total))

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr, weight_decay=self.hparams.weight_decay)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=self.trainer.max_epochs)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "epoch"}}
