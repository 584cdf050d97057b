import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from net import FoamNet
from voxels import GRADES, make_split


class Evaluator:
    """Scores a model on a held-out loader; keeps the history for the log."""

    def __init__(self, loader):
        self.loader = loader
        self.history = []

    @torch.no_grad()
    def __call__(self, model):
        correct, total = 0, 0
        for xb, yb in self.loader:
            correct += (model(xb).argmax(1) == yb).sum().item()
            total += len(yb)
        acc = correct / total
        self.history.append(acc)
        return acc


def random_flip(x):
    # foams are isotropic: flip along random axes
    for dim in (2, 3, 4):
        if torch.rand(()) < 0.5:
            x = x.flip(dim)
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--per-grade", type=int, default=160)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = make_split(args.per_grade, seed=1)
    xva, yva = make_split(50, seed=2)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)),
                          batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(xva), torch.from_numpy(yva)), batch_size=50)

    model = FoamNet(len(GRADES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    evaluate = Evaluator(val_dl)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(random_flip(xb)), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        sched.step()
        acc = evaluate(model)
        print(f"epoch {epoch + 1}  loss {total / len(train_dl.dataset):.4f}  val_acc {acc:.3f}")
    print(f"val_acc={evaluate.history[-1]:.4f}")


if __name__ == "__main__":
    main()
