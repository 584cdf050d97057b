import argparse
import logging
import warnings

import lightning as L
import torch

from datamodule import DemandDataModule
from model import QuantileForecaster


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    warnings.filterwarnings("ignore", ".*does not have many workers.*")
    logging.getLogger("lightning").setLevel(logging.WARNING)
    L.seed_everything(args.seed, verbose=False)

    dm = DemandDataModule(seed=args.seed)
    model = QuantileForecaster()
    trainer = L.Trainer(max_epochs=args.max_epochs, accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
                        gradient_clip_val=100.0)
    trainer.fit(model, datamodule=dm)

    x, y = dm.val_set.tensors
    model.eval()
    with torch.no_grad():
        p50 = model(x)[..., 1]
    mae = (dm.scaler.inverse(p50) - dm.scaler.inverse(y)).abs().mean().item()
    naive = (dm.scaler.inverse(x[:, -24:-24 + y.shape[1]]) - dm.scaler.inverse(y)).abs().mean().item()
    print(f"seasonal-naive mae {naive:.3f}")
    print(f"val_p50_mae={mae:.4f}")


if __name__ == "__main__":
    main()
