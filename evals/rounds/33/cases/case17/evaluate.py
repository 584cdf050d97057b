import argparse
import json
import os

import torch

from data import splits
from features import to_unit_range
from model import PitchNet


def r2(pred, y):
    return 1.0 - float(((pred - y) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="artifacts")
    args = ap.parse_args()
    with open(os.path.join(args.out, "stats.json")) as f:
        stats = json.load(f)
    _, (Xte, yte) = splits()
    X = torch.from_numpy(to_unit_range(Xte))
    model = PitchNet(X.shape[1])
    model.load_state_dict(torch.load(os.path.join(args.out, "model.pt")))
    model.eval()
    with torch.no_grad():
        pred = model(X) * stats["y_std"] + stats["y_mean"]
    y = torch.from_numpy(yte)
    mae_cents = float((pred - y).abs().mean()) * 1200
    print(f"test_mae_cents={mae_cents:.1f}")
    print(f"test_r2={r2(pred, y):.4f}")


if __name__ == "__main__":
    main()
