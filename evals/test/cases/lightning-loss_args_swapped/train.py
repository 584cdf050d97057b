import argparse

import lightning as L
from churn.data import FEATURES, ChurnDataModule
from churn.model import ChurnClassifier


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=5e-3)
    parser.add_argument("--hidden", type=int, default=64)
    args = parser.parse_args()

    L.seed_everything(0, workers=True)
    dm = ChurnDataModule(batch_size=args.batch_size)
    model = ChurnClassifier(n_features=len(FEATURES), hidden=args.hidden, lr=args.lr)
    trainer = L.Trainer(
        max_epochs=args.epochs,
        accelerator="cpu",
        devices=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        deterministic=True,
    )
    trainer.fit(model, datamodule=dm)
    metrics = trainer.callback_metrics
    print(
        f"epoch {trainer.current_epoch} | train_loss {metrics['train_loss']:.4f} | "
        f"val_loss {metrics['val_loss']:.4f} | val_acc {metrics['val_acc']:.4f}"
    )


if __name__ == "__main__":
    main()
