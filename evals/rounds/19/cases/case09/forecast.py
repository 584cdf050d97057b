"""One-step-ahead altitude forecaster (MLP over a lookback window of altitude deltas + burner)."""
import argparse

import numpy as np
import torch
import torch.nn as nn

LOOKBACK = 12


def windows(alt, burn, lookback=LOOKBACK):
    """Slide over each flight and cut (history, next altitude) pairs.

    History is expressed relative to the last observed altitude so the model
    does not have to learn the absolute height.
    """
    xs, ys, refs = [], [], []
    for a, b in zip(alt, burn):
        for i in range(len(a) - lookback - 1):
            hist = a[i:i + lookback + 1]
            ref = a[i + lookback - 1]
            target = a[i + lookback]
            xs.append(np.concatenate([hist - ref, b[i:i + lookback]]))
            ys.append(target - ref)
            refs.append(ref)
    return np.array(xs, np.float32), np.array(ys, np.float32)[:, None], np.array(refs, np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="flights.npz")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)

    d = np.load(a.data)
    alt, burn = d["alt"], d["burn"]
    n_train = int(0.8 * len(alt))                       # split by flight, not by window
    Xtr, ytr, _ = windows(alt[:n_train], burn[:n_train])
    Xva, yva, _ = windows(alt[n_train:], burn[n_train:])
    Xtr, ytr, Xva, yva = map(torch.from_numpy, (Xtr, ytr, Xva, yva))
    scale = ytr.std()

    model = nn.Sequential(nn.Linear(Xtr.shape[1], 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    loss_fn = nn.SmoothL1Loss()
    for ep in range(a.epochs):
        perm = torch.randperm(len(Xtr))
        for s in range(0, len(Xtr), 128):
            j = perm[s:s + 128]
            loss = loss_fn(model(Xtr[j]) / scale, ytr[j] / scale)
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            mae = (model(Xva) - yva).abs().mean().item()
        print(f"epoch {ep + 1}: train_loss={loss.item():.4f} val_mae_m={mae:.3f}")
    print(f"val_mae_m={mae:.4f}")


if __name__ == "__main__":
    main()
