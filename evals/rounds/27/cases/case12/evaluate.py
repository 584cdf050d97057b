import argparse

import numpy as np
import torch

from model import SneezeCNN
from signals import simulate_sessions, standardize


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum()
    fp = ((pred == 1) & (y == 0)).sum()
    fn = ((pred == 0) & (y == 1)).sum()
    prec = tp / max(tp + fp, 1)
    rec = tp / max(tp + fn, 1)
    return 0.0 if prec + rec == 0 else 2 * prec * rec / (prec + rec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", default="artifacts/model.pt")
    args = ap.parse_args()
    ckpt = torch.load(args.ckpt)
    # held-out sessions: different seed stream from training
    X, y, sess = simulate_sessions(n_sessions=16, windows_per_session=60, seed=1000 + ckpt["seed"])
    X = standardize(X)

    model = SneezeCNN()
    model.load_state_dict(ckpt["state_dict"])
    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(X)).argmax(1).numpy()
    acc = (pred == y).mean()
    print(f"held-out sessions {len(np.unique(sess))}  windows {len(y)}  acc {acc:.3f}")
    print(f"test_f1={f1_score(pred, y):.4f}")


if __name__ == "__main__":
    main()
