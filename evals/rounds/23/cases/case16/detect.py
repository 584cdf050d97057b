import argparse

import numpy as np
import torch
import torch.nn as nn

SR = 256
NO_GRIND, GRIND = 0, 1


def record_nights(n_nights, windows_per_night, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(SR) / SR
    X, y, night = [], [], []
    for k in range(n_nights):
        gain = rng.lognormal(0, 0.8)
        for _ in range(windows_per_night):
            sig = rng.normal(0, 1, SR) * 0.3 + 0.4 * np.sin(2 * np.pi * rng.uniform(1, 3) * t)  # breathing, movement
            lab = int(rng.random() < 0.25)
            if lab:  # grinding: rhythmic bursts of broadband friction at 60-90 Hz
                burst = (np.sin(2 * np.pi * rng.uniform(1, 2) * t) > 0.3).astype(float)
                sig += burst * rng.uniform(0.5, 1.0) * np.sin(2 * np.pi * rng.uniform(60, 90) * t + rng.uniform(0, 6))
            X.append(gain * sig); y.append(lab); night.append(k)
    return np.asarray(X, np.float32), np.asarray(y, np.int64), np.asarray(night)


def per_night_scale(X, night):
    out = np.empty_like(X)
    for k in np.unique(night):
        m = night == k
        out[m] = X[m] / np.median(np.sqrt((X[m] ** 2).mean(1)))
    return out


def band_energies(X, n_bands=16):
    spec = np.abs(np.fft.rfft(X, axis=1)) ** 2
    bands = np.array_split(spec[:, 1:], n_bands, axis=1)
    return np.log1p(np.stack([b.sum(1) for b in bands], 1)).astype(np.float32)


def f1_score(logits, y):
    probs = torch.softmax(logits, dim=1)
    pred = probs[:, NO_GRIND] > 0.5
    truth = y == GRIND
    tp = (pred & truth).sum().item()
    fp = (pred & ~truth).sum().item()
    fn = (~pred & truth).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    X, y, night = record_nights(30, 100, seed=8)
    F = band_energies(per_night_scale(X, night))
    F = (F - F.mean(0)) / F.std(0)
    val = night >= 24  # last six nights held out
    Ftr, ytr = torch.from_numpy(F[~val]), torch.from_numpy(y[~val])
    Fva, yva = torch.from_numpy(F[val]), torch.from_numpy(y[val])

    model = nn.Sequential(nn.Linear(F.shape[1], 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    lossf = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = lossf(model(Ftr[idx]), ytr[idx])
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            f1 = f1_score(model(Fva), yva)
        print(f"epoch {epoch + 1:2d} loss={loss.item():.4f} val_f1={f1:.3f}")
    print(f"val_f1={f1:.4f}")


if __name__ == "__main__":
    main()
