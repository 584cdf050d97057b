import argparse

import numpy as np
import torch

from grn import GRNForecaster
from make_series import make_panel, windows

PAST, HORIZON = 28, 14


def wmape(pred, true):
    return float(np.abs(pred - true).sum() / np.abs(true).sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    series, (cats, size) = make_panel()
    split = 330
    xtr, ytr, itr = windows(series, PAST, HORIZON, 0, split - HORIZON, step=2)
    xva, yva, iva = windows(series, PAST, HORIZON, split, series.shape[1], step=HORIZON)

    # scale every window by the mean of its own past (makes series of different size comparable)
    def scale(x, y):
        s = x.mean(1, keepdims=True)
        return x / s, y / s, s

    xtr_s, ytr_s, _ = scale(xtr, ytr)
    xva_s, yva_s, sva = scale(xva, yva)
    T = lambda a: torch.tensor(a, dtype=torch.float32)
    cats_t, size_t = torch.tensor(cats), T(size)

    model = GRNForecaster(PAST, HORIZON)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    xtr_t, ytr_t, itr_t = T(xtr_s), T(ytr_s), torch.tensor(itr)
    xva_t, iva_t = T(xva_s), torch.tensor(iva)

    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(xtr_t))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            pred = model(xtr_t[b], cats_t[itr_t[b]], size_t[itr_t[b]])
            loss = torch.nn.functional.l1_loss(pred, ytr_t[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            pv = model(xva_t, cats_t[iva_t], size_t[iva_t]).numpy() * sva
        if epoch % 5 == 0 or epoch == 1:
            print(f"epoch {epoch:3d} train_l1 {tot / len(perm):.4f} val_wmape {wmape(pv, yva):.4f}")

    naive = np.concatenate([xva[:, -7:], xva[:, -7:]], 1)[:, :HORIZON]
    print(f"seasonal_naive_wmape={wmape(naive, yva):.4f}")
    print(f"val_wmape={wmape(pv, yva):.4f}")


if __name__ == "__main__":
    main()
