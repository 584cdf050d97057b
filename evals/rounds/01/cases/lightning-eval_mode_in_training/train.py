import argparse
import logging
import warnings

import lightning as L
import torch

from flowguard.callbacks import EpochPrinter, ProbeConfidenceLogger
from flowguard.data import CLASSES, N_FEATURES, FlowDataModule
from flowguard.model import FlowClassifier

warnings.filterwarnings("ignore", ".*does not have many workers.*")
logging.getLogger("lightning.pytorch").setLevel(logging.WARNING)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--dropout", type=float, default=0.3)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()

    L.seed_everything(args.seed, verbose=False)
    torch.set_num_threads(1)
    dm = FlowDataModule(batch_size=args.batch_size, seed=args.seed)
    dm.setup()
    model = FlowClassifier(N_FEATURES, len(CLASSES), args.hidden, args.dropout, args.lr)
    probe = dm.val_set.tensors[0][:256]

    trainer = L.Trainer(
        max_epochs=args.max_epochs,
        accelerator="cpu",
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        deterministic=True,
        callbacks=[ProbeConfidenceLogger(probe, every_n_steps=50), EpochPrinter()],
    )
    trainer.fit(model, datamodule=dm)
    res = trainer.validate(model, datamodule=dm, verbose=False)[0]
    print(f"val_acc={res['val_acc']:.4f}")


if __name__ == "__main__":
    main()
