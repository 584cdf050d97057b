"""Evaluate the trained takeoff-force model on jumps it has never seen."""
import argparse
import json
import os

import numpy as np
import torch

from common import ForceNet, r2
from jumps import simulate_jumps


def load_features(X, stats):
    mean = np.asarray(stats["mean"], dtype=np.float32)
    scale = np.asarray(stats["scale"], dtype=np.float32)
    return ((X - mean) / scale).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12345)
    args = ap.parse_args()

    with open(os.path.join(args.artifacts, "norm.json")) as f:
        stats = json.load(f)
    model = ForceNet(len(stats["features"]))
    model.load_state_dict(torch.load(os.path.join(args.artifacts, "model.pt")))
    model.eval()

    X, y = simulate_jumps(args.n, seed=args.seed)
    with torch.no_grad():
        pred = model(torch.from_numpy(load_features(X, stats)))
    pred_kn = pred * stats["y_std"] + stats["y_mean"]
    y = torch.from_numpy(y)
    mae = (pred_kn - y).abs().mean().item()
    print(f"test_mae_kN={mae:.4f}")
    print(f"test_r2={r2(pred_kn, y).item():.4f}")


if __name__ == "__main__":
    main()
