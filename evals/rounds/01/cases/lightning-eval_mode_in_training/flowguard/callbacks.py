import lightning as L
import torch


class ProbeConfidenceLogger(L.Callback):
    """Every `every_n_steps` optimizer steps, log the mean max-probability on a fixed probe batch."""

    def __init__(self, probe_x, every_n_steps=50):
        self.probe_x = probe_x
        self.every_n_steps = every_n_steps
        self.history = []

    def on_train_batch_start(self, trainer, pl_module, batch, batch_idx):
        if trainer.global_step % self.every_n_steps:
            return
        pl_module.eval()
        with torch.no_grad():
            conf = pl_module(self.probe_x.to(pl_module.device)).softmax(-1).amax(-1).mean().item()
        self.history.append((trainer.global_step, conf))
        pl_module.log("probe_confidence", conf)


class EpochPrinter(L.Callback):
    def on_train_epoch_end(self, trainer, pl_module):
        m = trainer.callback_metrics
        print(f"epoch {trainer.current_epoch + 1:2d} train_loss {m.get('train_loss', float('nan')):.4f} "
              f"val_loss {m['val_loss']:.4f} val_acc {m['val_acc']:.4f}", flush=True)
