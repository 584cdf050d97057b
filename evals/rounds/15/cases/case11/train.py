import argparse

import numpy as np
import torch
import torch.nn.functional as F

from model import TremorNet
from synth import make_windows


def f1_score(pred, y):
    tp = float(((pred == 1) & (y == 1)).sum())
    fp = float(((pred == 1) & (y == 0)).sum())
    fn = float(((pred == 0) & (y == 1)).sum())
    return 2 * tp / max(2 * tp + fp + fn, 1.0)


def evaluate(model, x, y, threshold=0.5):
    model.eval()
    with torch.no_grad():
        p = model.alert_probability(x)
    model.train()
    return f1_score((p > threshold).long(), y.long())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    xtr, ytr = make_windows(2000, seed=100 + args.seed)
    xva, yva = make_windows(600, seed=999)
    xtr, ytr = torch.from_numpy(xtr), torch.from_numpy(ytr)
    xva, yva = torch.from_numpy(xva), torch.from_numpy(yva)

    model = TremorNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    g = torch.Generator().manual_seed(args.seed)

    for epoch in range(args.epochs):
        perm = torch.randperm(len(xtr), generator=g)
        total = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            p_alert = model.alert_probability(xtr[idx])
            loss = F.binary_cross_entropy_with_logits(p_alert, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1} loss {total / len(xtr):.4f} val_f1 {evaluate(model, xva, yva):.3f}")

    print(f"val_f1={evaluate(model, xva, yva):.4f}")


if __name__ == "__main__":
    main()
