import argparse
import logging
import warnings

import lightning as L
import torch
from torch.utils.data import DataLoader

from events import make_events
from module import EventDetector


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-epochs", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    logging.getLogger("lightning").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", ".*does not have many workers.*")
    L.seed_everything(args.seed, verbose=False)

    train_ds = make_events(8000, seed=31)
    val_ds = make_events(4000, seed=32)
    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1000)

    model = EventDetector(lr=args.lr)
    trainer = L.Trainer(max_epochs=args.max_epochs, accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False, deterministic=True)
    trainer.fit(model, train_dl, val_dl)
    lr_now = trainer.optimizers[0].param_groups[0]["lr"]
    print(f"final_lr={lr_now:.2e}")
    print(f"val_ap={trainer.callback_metrics['val_ap'].item():.4f}")


if __name__ == "__main__":
    main()
