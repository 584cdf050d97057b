import argparse
import json
import time

import numpy as np
import torch
import torch.nn as nn

from .tiles import make_set, to_targets
from .model import TinySegNet


def miou(pred, raw_labels, n_classes, nodata):
    valid = raw_labels != nodata
    ious = []
    for c in range(n_classes):
        p = (pred == c) & valid
        t = (raw_labels == c) & valid
        union = (p | t).sum()
        if union > 0:
            ious.append((p & t).sum() / union)
    return float(np.mean(ious)), ious


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="sonar_config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])

    Xtr, Ytr = make_set(cfg["n_train"], cfg, rng)
    Xva, Yva = make_set(cfg["n_val"], cfg, rng)
    Xtr_t, Ttr = torch.tensor(Xtr), torch.tensor(to_targets(Ytr, cfg))
    Xva_t = torch.tensor(Xva)

    n_classes = len(cfg["classes"])
    model = TinySegNet(n_classes, cfg["width"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    criterion = nn.CrossEntropyLoss(ignore_index=cfg["ignore_index"])

    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr_t))
        tot = 0.0
        for s in range(0, len(perm), cfg["batch_size"]):
            j = perm[s:s + cfg["batch_size"]]
            loss = criterion(model(Xtr_t[j]), Ttr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        model.eval()
        with torch.no_grad():
            pred = model(Xva_t).argmax(1).numpy()
        m, ious = miou(pred, Yva, n_classes, cfg["nodata_value"])
        print(f"epoch {epoch + 1:2d} loss {tot / len(perm):.4f} miou {m:.4f} "
              + " ".join(f"{c}={v:.3f}" for c, v in zip(cfg["classes"], ious)))
    print(f"{time.time() - t0:.1f}s")
    print(f"val_miou={m:.4f}")


if __name__ == "__main__":
    main()
