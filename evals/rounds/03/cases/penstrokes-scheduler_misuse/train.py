import argparse
import warnings

import lightning.pytorch as pl
import torch
from torch.utils.data import DataLoader

from callbacks import BestScore, EpochPrinter
from module import StrokeClassifier
from strokes import SHAPES, make_split

warnings.filterwarnings("ignore", ".*does not have many workers.*")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    pl.seed_everything(args.seed, verbose=False)
    train_loader = DataLoader(make_split(2400, seed=args.seed), batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(make_split(800, seed=4321), batch_size=400)

    model = StrokeClassifier(n_classes=len(SHAPES), lr=args.lr)
    best = BestScore()
    early = pl.callbacks.EarlyStopping(monitor="val_loss", patience=3, mode="min")
    trainer = pl.Trainer(max_epochs=args.epochs, accelerator="cpu", devices=1, logger=False,
                         enable_checkpointing=False, enable_progress_bar=False,
                         enable_model_summary=False, deterministic=True,
                         callbacks=[EpochPrinter(), best, early])
    trainer.fit(model, train_loader, val_loader)
    final = trainer.validate(model, val_loader, verbose=False)[0]
    print(f"best_val_acc={best.best:.4f}")
    print(f"val_acc={final['val_acc']:.4f}")


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
