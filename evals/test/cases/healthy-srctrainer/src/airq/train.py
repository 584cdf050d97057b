import argparse

import numpy as np
import torch

from airq.data import FEATURES, build_loaders
from airq.model import NowcastMLP
from airq.trainer import Trainer


def main(argv=None):
    ap = argparse.ArgumentParser(description="train the PM2.5 nowcaster")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--warmup-frac", type=float, default=0.05)
    ap.add_argument("--clip", type=float, default=1.0, help="max global grad norm")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)

    torch.manual_seed(args.seed)
    train_dl, val_dl, test_dl, y_scaler = build_loaders(4000, 800, 1000, args.batch_size, args.seed)
    model = NowcastMLP(len(FEATURES))
    trainer = Trainer(model, train_dl, val_dl, epochs=args.epochs, lr=args.lr,
                      weight_decay=args.weight_decay, warmup_frac=args.warmup_frac, clip=args.clip)
    trainer.fit()

    _, preds, targets = trainer.evaluate(test_dl)
    pm_pred = np.expm1(y_scaler.inverse(preds.numpy()))
    pm_true = np.expm1(y_scaler.inverse(targets.numpy()))
    rmse = float(np.sqrt(np.mean((pm_pred - pm_true) ** 2)))
    naive = float(np.sqrt(np.mean((pm_true - pm_true.mean()) ** 2)))
    print(f"test rmse: {rmse:.3f} ug/m3 (predict-the-mean baseline {naive:.3f})")


if __name__ == "__main__":
    main()
