"""Emergency-department triage: flag patients who need urgent review.

Inputs are vital signs and intake data at arrival; the label is whether the
patient was escalated within the first hour. Positives are a minority, so we
train with a positive-class weight, then choose the operating threshold on the
validation set (max F1) and report test F1 at that threshold.
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

FEATURES = ["age", "heart_rate", "resp_rate", "sys_bp", "spo2", "temp", "gcs", "pain",
            "lactate", "arrived_by_ambulance", "chest_pain", "prior_visits"]


def synth_cohort(n, rng):
    age = rng.uniform(18, 95, n)
    hr = rng.normal(85, 18, n)
    rr = rng.normal(17, 4, n)
    sbp = rng.normal(128, 22, n)
    spo2 = np.clip(rng.normal(96, 3, n), 70, 100)
    temp = rng.normal(37.0, 0.8, n)
    gcs = np.clip(np.round(15 - rng.exponential(0.6, n)), 3, 15)
    pain = rng.integers(0, 11, n).astype(float)
    lact = np.abs(rng.normal(1.5, 1.0, n))
    amb = (rng.random(n) < 0.3).astype(float)
    chest = (rng.random(n) < 0.15).astype(float)
    prior = rng.poisson(1.0, n).astype(float)
    score = (0.04 * (hr - 85) + 0.15 * (rr - 17) - 0.03 * (sbp - 128) - 0.25 * (spo2 - 96)
             + 0.6 * (temp - 37) ** 2 - 0.8 * (gcs - 15) + 0.8 * (lact - 1.5) + 1.0 * amb
             + 1.2 * chest * (age > 50) + 0.015 * (age - 55))
    p = 1 / (1 + np.exp(-(score - 2.0)))
    y = (rng.random(n) < p).astype(np.float32)
    X = np.stack([age, hr, rr, sbp, spo2, temp, gcs, pain, lact, amb, chest, prior], 1)
    return X.astype(np.float32), y


def f1_at(probs, y, thr):
    pred = probs >= thr
    tp = np.sum(pred & (y == 1))
    fp = np.sum(pred & (y == 0))
    fn = np.sum(~pred & (y == 1))
    return 2 * tp / max(2 * tp + fp + fn, 1)


def choose_threshold(probs, y, grid=None):
    grid = np.linspace(0.05, 0.95, 91) if grid is None else grid
    best_f1, best_t = -1.0, 0.5
    for t in grid:
        f1 = f1_at(probs, y, t)
        if f1 > best_f1:
            best_f1 = f1
        best_t = t
    return best_t, best_f1


def predict_proba(model, X):
    model.eval()
    with torch.no_grad():
        p = torch.sigmoid(model(torch.from_numpy(X)).squeeze(1)).numpy()
    model.train()
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=12000)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(2020)
    X, y = synth_cohort(args.n, rng)
    order = np.random.default_rng(args.seed).permutation(args.n)
    tr, va, te = np.split(order, [int(0.6 * args.n), int(0.8 * args.n)])
    mu, sd = X[tr].mean(0), X[tr].std(0)
    Xs = (X - mu) / sd
    print(f"prevalence train={y[tr].mean():.3f} val={y[va].mean():.3f} test={y[te].mean():.3f}")

    model = nn.Sequential(nn.Linear(len(FEATURES), 64), nn.ReLU(), nn.Dropout(0.1),
                          nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
    pos_weight = torch.tensor((1 - y[tr].mean()) / y[tr].mean())
    crit = nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-4)
    Xt, yt = torch.from_numpy(Xs[tr]), torch.from_numpy(y[tr])
    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xt))
        for i in range(0, len(perm), 128):
            b = perm[i:i + 128]
            loss = crit(model(Xt[b]).squeeze(1), yt[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_f1@0.5={f1_at(predict_proba(model, Xs[va]), y[va], 0.5):.4f}")

    thr, val_f1 = choose_threshold(predict_proba(model, Xs[va]), y[va])
    test_f1 = f1_at(predict_proba(model, Xs[te]), y[te], thr)
    print(f"threshold={thr:.2f} (val f1 {val_f1:.4f})")
    print(f"test_f1={test_f1:.4f}")


if __name__ == "__main__":
    main()
