import argparse

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from chroma import CHORDS, make_frames
from losses import LabelSmoothingCrossEntropy
from model import ChordClassifier


def expected_calibration_error(probs, y, n_bins=10):
    conf, pred = probs.max(dim=1)
    correct = (pred == y).float()
    ece = torch.zeros(())
    edges = torch.linspace(0, 1, n_bins + 1)
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            ece += m.float().mean() * (conf[m].mean() - correct[m].mean()).abs()
    return ece.item()


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    probs = model.predict_proba(x)
    model.train()
    return (probs.argmax(1) == y).float().mean().item(), expected_calibration_error(probs, y)


def main():
    ap = argparse.ArgumentParser(description="triad recognition from chroma frames")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--smoothing", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_tr, y_tr = map(torch.from_numpy, make_frames(6000, seed=args.seed))
    x_te, y_te = map(torch.from_numpy, make_frames(2000, seed=777))
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=args.batch_size, shuffle=True,
                        generator=torch.Generator().manual_seed(args.seed))

    model = ChordClassifier(n_classes=len(CHORDS))
    criterion = LabelSmoothingCrossEntropy(args.smoothing)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=6, gamma=0.3)

    for epoch in range(1, args.epochs + 1):
        losses, hits = [], 0
        for xb, yb in loader:
            probs = model.predict_proba(xb)
            loss = criterion(probs, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            hits += (probs.argmax(1) == yb).sum().item()
        sched.step()
        acc, ece = evaluate(model, x_te, y_te)
        print(f"epoch {epoch:2d}  loss {np.mean(losses):.4f}  train_acc {hits / len(x_tr):.3f}  "
              f"test_acc {acc:.3f}  ece {ece:.3f}")

    acc, ece = evaluate(model, x_te, y_te)
    print(f"test_ece={ece:.4f}")
    print(f"test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
