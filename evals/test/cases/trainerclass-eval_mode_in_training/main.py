import argparse
from pathlib import Path

import torch

from datasets import load_splits
from models import FaultClassifier
from prepare_data import prepare
from trainer import Trainer


def get_args():
    p = argparse.ArgumentParser(description="Train the sensor fault classifier")
    p.add_argument("--data-dir", required=True, help="folder with train.csv / val.csv / test.csv")
    p.add_argument("--epochs", type=int, default=25)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--dropout", type=float, default=0.5)
    p.add_argument("--val-every", type=int, default=10, help="validate every N training steps")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    data_dir = Path(args.data_dir)
    if not (data_dir / "train.csv").exists():
        print(f"no CSVs in {data_dir}, generating the synthetic dataset")
        prepare(data_dir, seed=args.seed)
    splits = load_splits(data_dir)

    model = FaultClassifier(splits["train"].n_features, 4, hidden=args.hidden, dropout=args.dropout)
    trainer = Trainer(model, splits["train"], splits["val"], batch_size=args.batch_size, lr=args.lr,
                      weight_decay=args.weight_decay, epochs=args.epochs, val_every=args.val_every,
                      seed=args.seed)
    trainer.fit()

    from torch.utils.data import DataLoader
    test_loss, test_acc = trainer.evaluate(DataLoader(splits["test"], batch_size=512))
    print(f"test_loss {test_loss:.4f} | test_acc {test_acc:.4f}")


if __name__ == "__main__":
    main()
