import lightning.pytorch as pl


class EpochPrinter(pl.Callback):
    """Compact one-line summary per epoch (we run without a logger)."""

    def on_train_epoch_end(self, trainer, pl_module):
        m = trainer.callback_metrics
        lr = trainer.optimizers[0].param_groups[0]["lr"]
        print(f"epoch {trainer.current_epoch + 1:2d}  train_loss {float(m.get('train_loss', float('nan'))):.4f}  "
              f"val_loss {float(m['val_loss']):.4f}  val_acc {float(m['val_acc']):.4f}  lr {lr:.2e}")


class BestScore(pl.Callback):
    """Remember the best validation accuracy seen during fit."""

    def __init__(self):
        self.best = 0.0

    def on_validation_epoch_end(self, trainer, pl_module):
        if not trainer.sanity_checking:
            self.best = max(self.best, float(trainer.callback_metrics["val_acc"]))
