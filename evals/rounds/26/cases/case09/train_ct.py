import argparse
from contextlib import contextmanager

import torch
import torch.nn as nn
import torch.nn.functional as F

from voxels import CLASSES, make_split


def block(cin, cout):
    return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1, bias=False),
                         nn.BatchNorm3d(cout), nn.ReLU(), nn.MaxPool3d(2))


class VoxelNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.features = nn.Sequential(block(1, 8), block(8, 16), block(16, 32))
        self.head = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3, 4)))


@contextmanager
def evaluating(net):
    """Temporarily switch `net` for scoring, restoring its mode afterwards."""
    was_training = net.training
    net.train(was_training)
    try:
        yield net
    finally:
        net.train(was_training)


def score(net, x, y, bs=50):
    correct = 0
    with evaluating(net), torch.no_grad():
        for i in range(0, len(y), bs):
            correct += (net(x[i:i + bs]).argmax(1) == y[i:i + bs]).sum().item()
    return correct / len(y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = make_split(160, args.seed)
    xva, yva = make_split(60, args.seed + 99)
    xtr, ytr, xva, yva = map(torch.from_numpy, (xtr, ytr, xva, yva))

    net = VoxelNet(len(CLASSES))
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    for ep in range(args.epochs):
        net.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), 32):
            b = perm[i:i + 32]
            loss = F.cross_entropy(net(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        acc = score(net, xva, yva)
        print(f"epoch {ep + 1} loss {loss.item():.3f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
