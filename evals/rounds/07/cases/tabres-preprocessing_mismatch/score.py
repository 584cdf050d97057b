"""Score the hold-out split row by row with the saved artifacts."""
import argparse
import json
import os

import numpy as np
import torch

from resnet import TabResNet
from scaler import load_scaler
from table import generate, split


def predict_row(model, scaler, row):
    x = torch.from_numpy(scaler.transform(row[None, :]))
    with torch.no_grad():
        return int(model(x).argmax(1).item())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.settings))
    if args.seed is not None:
        cfg["seed"] = args.seed

    X, y = generate(cfg["n_rows"])
    _, (Xho, yho) = split(X, y, cfg["holdout_frac"], cfg["seed"])
    model = TabResNet(X.shape[1], cfg["width"], cfg["blocks"], cfg["dropout"])
    model.load_state_dict(torch.load(os.path.join(cfg["out_dir"], "model.pt")))
    model.eval()
    scaler = load_scaler(os.path.join(cfg["out_dir"], "scaler.json"))

    preds = np.array([predict_row(model, scaler, r) for r in Xho])
    acc = float((preds == yho).mean())
    print(f"holdout rows {len(yho)}  positive rate {yho.mean():.3f}")
    print(f"METRIC holdout_acc={acc:.4f}")


if __name__ == "__main__":
    main()
