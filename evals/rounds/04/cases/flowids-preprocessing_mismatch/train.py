import argparse
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, WeightedRandomSampler

from flows import CLASSES, FEATURES, FlowDataset, fit_stats, synth


def macro_f1(pred, y, k):
    f1s = []
    for c in range(k):
        tp = ((pred == c) & (y == c)).sum()
        fp = ((pred == c) & (y != c)).sum()
        fn = ((pred != c) & (y == c)).sum()
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return float(np.mean(f1s))


def make_sampler(labels, seed):
    counts = np.bincount(labels, minlength=len(CLASSES))
    w = 1.0 / counts[labels]
    g = torch.Generator().manual_seed(seed)
    return WeightedRandomSampler(torch.as_tensor(w, dtype=torch.double), num_samples=len(labels),
                                 replacement=True, generator=g)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--n", type=int, default=8000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = synth(args.n, seed=1234)
    rng = np.random.default_rng(99)
    perm = rng.permutation(len(y))
    n_val = len(y) // 5
    va, tr = perm[:n_val], perm[n_val:]
    stats = fit_stats(X[tr])

    train_ds = FlowDataset(X[tr], y[tr], stats, augment=True)
    val_ds = FlowDataset(X[va], y[va], stats, False)

    train_dl = DataLoader(train_ds, batch_size=args.batch_size, sampler=make_sampler(y[tr], args.seed),
                          num_workers=args.workers, persistent_workers=args.workers > 0)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = nn.Sequential(
        nn.Linear(len(FEATURES), 64), nn.ReLU(), nn.Dropout(0.1),
        nn.Linear(64, 64), nn.ReLU(),
        nn.Linear(64, len(CLASSES)),
    )
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()

    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item() * len(yb)
        model.eval()
        preds, gold = [], []
        with torch.no_grad():
            for xb, yb in val_dl:
                preds.append(model(xb).argmax(1))
                gold.append(yb)
        f1 = macro_f1(torch.cat(preds).numpy(), torch.cat(gold).numpy(), len(CLASSES))
        print(f"epoch {epoch + 1:02d} train_loss {running / len(train_ds):.4f} val_macro_f1 {f1:.4f} [{time.time() - t0:.1f}s]")
    print(f"val_macro_f1={f1:.4f}")


if __name__ == "__main__":
    main()
