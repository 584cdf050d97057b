import argparse

import lightning as L

from har.datamodule import ACTIVITIES, HARDataModule
from har.model import ActivityNet


def parse_args():
    p = argparse.ArgumentParser(description="train the activity classifier")
    p.add_argument("--max-epochs", type=int, default=6)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=1234)
    return p.parse_args()


def main():
    args = parse_args()
    L.seed_everything(args.seed)
    dm = HARDataModule(batch_size=args.batch_size)
    model = ActivityNet(n_classes=len(ACTIVITIES), lr=args.lr, max_epochs=args.max_epochs)
    trainer = L.Trainer(
        max_epochs=args.max_epochs,
        accelerator="cpu",
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        gradient_clip_val=5.0,
        log_every_n_steps=10,
    )
    trainer.fit(model, datamodule=dm)
    results = trainer.validate(model, datamodule=dm, verbose=False)[0]
    print(f"val_loss {results['val_loss']:.4f} | val_acc {results['val_acc']:.4f}")


if __name__ == "__main__":
    main()
