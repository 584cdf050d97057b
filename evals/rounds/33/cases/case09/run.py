import argparse

import lightning as L
import torch
from torch.utils.data import DataLoader

from module import LevelForecaster
from series import windows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    L.seed_everything(a.seed, verbose=False)
    train_ds = windows(2400, seed=1)
    val_ds = windows(700, seed=2)
    model = LevelForecaster()
    trainer = L.Trainer(max_epochs=a.max_epochs, accelerator="cpu", logger=False,
                        enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False)
    trainer.fit(model, DataLoader(train_ds, batch_size=64, shuffle=True),
                DataLoader(val_ds, batch_size=256))
    model.eval()
    with torch.no_grad():
        x, dy, last = val_ds.tensors
        pred = model(x)
        mae = (pred - dy).abs().mean().item()
        persistence = dy.abs().mean().item()
    print(f"persistence_mae={persistence:.4f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
