"""Score the saved checkpoint on the held-out test scans."""
import argparse
import os

import numpy as np
import torch

from net import HailNet
from voxels import CLASSES


def load(artifacts):
    model = HailNet()
    model.load_state_dict(torch.load(os.path.join(artifacts, "hailnet.pt")))
    data = np.load(os.path.join(artifacts, "test_scans.npz"))
    return model, torch.from_numpy(data["x"]), torch.from_numpy(data["y"])


def predict(model, x, batch_size=50):
    out = []
    with torch.no_grad():
        for i in range(0, len(x), batch_size):
            out.append(model(x[i:i + batch_size]).argmax(1))
    return torch.cat(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--artifacts", default="artifacts")
    args = ap.parse_args()
    model, x, y = load(args.artifacts)
    pred = predict(model, x)
    for k, name in enumerate(CLASSES):
        sel = y == k
        print(f"{name:9s} recall {(pred[sel] == k).float().mean().item():.3f}")
    print(f"test_acc={(pred == y).float().mean().item():.4f}")


if __name__ == "__main__":
    main()
