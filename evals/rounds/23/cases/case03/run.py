import argparse

import torch
from torch.utils.data import DataLoader

from axleut.engine import Trainer
from axleut.losses import BinaryFocalLoss
from axleut.net import EchoNet
from axleut.scans import ScanSet, synth_scans


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    Xtr, ytr = synth_scans(2400, seed=100)
    Xva, yva = synth_scans(800, seed=200)
    train_loader = DataLoader(ScanSet(Xtr, ytr), batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(ScanSet(Xva, yva), batch_size=256)

    model = EchoNet()
    trainer = Trainer(model, BinaryFocalLoss(alpha=0.75, gamma=1.0),
                      torch.optim.Adam(model.parameters(), lr=args.lr))
    for epoch in range(args.epochs):
        loss = trainer.train_epoch(train_loader)
        ap_val = trainer.evaluate(val_loader)
        print(f"epoch {epoch + 1:2d} focal={loss:.4f} val_ap={ap_val:.3f}")
    print(f"val_ap={ap_val:.4f}")


if __name__ == "__main__":
    main()
