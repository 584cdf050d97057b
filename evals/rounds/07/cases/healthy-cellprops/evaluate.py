import argparse
import json
import os

import numpy as np
import torch

from cells import generate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--export", default="export")
    args = ap.parse_args()
    model = torch.jit.load(os.path.join(args.export, "cellprops.ts"))
    model.eval()
    stats = json.load(open(os.path.join(args.export, "target_stats.json")))
    mean, std = np.array(stats["mean"], dtype=np.float32), np.array(stats["std"], dtype=np.float32)

    x, chem, y = generate(1500, seed=999)
    with torch.no_grad():
        z = model(torch.from_numpy(x), torch.from_numpy(chem)).numpy()
    pred = z * std + mean                          # back to physical units, per target
    r2 = 1 - ((pred - y) ** 2).sum(0) / ((y - y.mean(0)) ** 2).sum(0)
    for name, v in zip(stats["targets"], r2):
        print(f"{name:18s} r2 {v:.4f}")
    print(f"METRIC mean_r2={float(r2.mean()):.4f}")


if __name__ == "__main__":
    main()
