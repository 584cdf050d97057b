import argparse

import torch
import torch.nn as nn
from fingerprints import simulate
from torch.utils.data import DataLoader, TensorDataset
from trainer import Trainer


class FingerprintMLP(nn.Module):
    def __init__(self, n_bits, hidden=128, dropout=0.2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_bits, hidden), nn.ReLU(), nn.Dropout(dropout),
                                 nn.Linear(hidden, hidden // 2), nn.ReLU(), nn.Linear(hidden // 2, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser(description="logS regression with gradient accumulation")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--micro-batch", type=int, default=16)
    ap.add_argument("--accum-steps", type=int, default=8)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--warmup-frac", type=float, default=0.1)
    ap.add_argument("--n-train", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    xtr, ytr = simulate(args.n_train, seed=args.seed)
    xva, yva = simulate(1000, seed=args.seed + 100)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)),
                          batch_size=args.micro_batch, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(xva), torch.from_numpy(yva)), batch_size=500)
    print(f"target std {ytr.std():.3f} (predict-the-mean rmse)")

    trainer = Trainer(FingerprintMLP(xtr.shape[1]), train_dl, val_dl, lr=args.lr,
                      weight_decay=args.weight_decay, epochs=args.epochs,
                      accum_steps=args.accum_steps, warmup_frac=args.warmup_frac)
    rmse = trainer.fit()
    print(f"METRIC val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
