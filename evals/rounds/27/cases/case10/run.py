import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from trainer import Trainer
from voxels import CLASSES, make_split


def conv_bn(cin, cout):
    return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1), nn.BatchNorm3d(cout), nn.ReLU())


class ChondruleNet(nn.Module):
    def __init__(self, n_classes=len(CLASSES)):
        super().__init__()
        self.features = nn.Sequential(conv_bn(1, 8), nn.MaxPool3d(2), conv_bn(8, 16), nn.MaxPool3d(2),
                                      conv_bn(16, 32), nn.AdaptiveAvgPool3d(1))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.head(self.features(x))


def switch_modes(trainer):
    trainer.on("before_evaluate", lambda t: t.model.eval())
    trainer.on("after_eval", lambda t: t.model.train())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = make_split(250, args.seed)
    Xte, yte = make_split(60, args.seed + 99)
    tr = TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr))
    te = TensorDataset(torch.from_numpy(Xte), torch.from_numpy(yte))
    train_dl = DataLoader(tr, batch_size=32, shuffle=True)
    test_dl = DataLoader(te, batch_size=30)

    model = ChondruleNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    trainer = Trainer(model, opt, nn.CrossEntropyLoss())
    switch_modes(trainer)
    trainer.on("after_epoch", lambda t: sched.step())
    trainer.fit(train_dl, args.epochs, eval_loader=test_dl)
    print(f"test_acc={trainer.evaluate(test_dl):.4f}")


if __name__ == "__main__":
    main()
