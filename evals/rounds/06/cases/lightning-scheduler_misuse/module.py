import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F


def focal_loss(logits, targets, gamma=2.0, alpha=0.75):
    bce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = torch.exp(-bce)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * (1 - p_t) ** gamma * bce).mean()


def average_precision(scores, labels):
    order = torch.argsort(scores, descending=True)
    labels = labels[order]
    tp = torch.cumsum(labels, 0)
    precision = tp / torch.arange(1, len(labels) + 1)
    return (precision * labels).sum().item() / max(labels.sum().item(), 1.0)


class EventDetector(L.LightningModule):
    def __init__(self, d_in=24, hidden=128, lr=3e-3, weight_decay=1e-4, step_size=8, gamma=0.5):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )
        self._val_scores, self._val_labels = [], []

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = focal_loss(self(x), y)
        self.log("train_loss", loss, prog_bar=False)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self._val_scores.append(self(x).detach())
        self._val_labels.append(y)

    def on_validation_epoch_end(self):
        ap = average_precision(torch.cat(self._val_scores), torch.cat(self._val_labels))
        self.log("val_ap", ap)
        self._val_scores.clear()
        self._val_labels.clear()

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr, weight_decay=self.hparams.weight_decay)
        sched = torch.optim.lr_scheduler.StepLR(opt, step_size=self.hparams.step_size, gamma=self.hparams.gamma)
        return {
            "optimizer": opt,
            "lr_scheduler": {"scheduler": sched, "interval": "step", "frequency": 1},
        }
