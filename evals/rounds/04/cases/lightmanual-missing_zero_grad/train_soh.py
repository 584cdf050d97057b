import argparse
import logging
import warnings

import lightning as L
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from soh_module import SoHModule


def make_cells(n, rng):
    """Summary features per cell -> remaining capacity (fraction of nominal), noise grows with age."""
    cycles = rng.uniform(0, 1, n)
    temp = rng.uniform(-1, 1, n)
    c_rate = rng.uniform(0, 1, n)
    dod = rng.uniform(0.2, 1, n)
    ir = 0.3 * cycles + 0.1 * temp ** 2 + 0.05 * rng.normal(size=n)
    extra = rng.normal(size=(n, 3))
    X = np.column_stack([cycles, temp, c_rate, dod, ir, extra])
    soh = 1.0 - 0.25 * cycles ** 1.5 - 0.08 * c_rate * dod - 0.05 * np.abs(temp)
    noise = 0.005 + 0.06 * cycles * dod
    y = soh + noise * rng.normal(size=n)
    return X.astype(np.float32), y.astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    logging.getLogger("lightning").setLevel(logging.ERROR)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")
    L.seed_everything(args.seed, verbose=False)

    rng = np.random.default_rng(77)
    Xtr, ytr = make_cells(3000, rng)
    Xva, yva = make_cells(800, rng)
    mu, sd = Xtr.mean(0), Xtr.std(0)
    norm = lambda a: torch.from_numpy((a - mu) / sd)
    train_dl = DataLoader(TensorDataset(norm(Xtr), torch.from_numpy(ytr)), batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(TensorDataset(norm(Xva), torch.from_numpy(yva)), batch_size=400)

    model = SoHModule(Xtr.shape[1])
    trainer = L.Trainer(max_epochs=args.max_epochs, accelerator="cpu", devices=1, logger=False,
                        enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
    trainer.fit(model, train_dl, val_dl)
    res = trainer.validate(model, val_dl, verbose=False)[0]
    print(f"val_nll={res['val_nll']:.4f} val_rmse={res['val_rmse']:.4f}")


if __name__ == "__main__":
    main()
