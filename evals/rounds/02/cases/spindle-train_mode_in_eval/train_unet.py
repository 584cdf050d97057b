import argparse
import json
import time

import numpy as np
import torch
import torch.nn.functional as F
from eegsim import CLASSES, simulate_set
from unet1d import UNet1d


def random_crops(x, y, n, crop, rng):
    rec = rng.integers(0, len(x), n)
    start = rng.integers(0, x.shape[1] - crop + 1, n)
    xs = np.stack([x[r, s:s + crop] for r, s in zip(rec, start)])
    ys = np.stack([y[r, s:s + crop] for r, s in zip(rec, start)])
    return torch.from_numpy(xs).unsqueeze(1), torch.from_numpy(ys)


def event_f1(pred, target):
    f1s = []
    for c in range(1, len(CLASSES)):
        tp = ((pred == c) & (target == c)).sum()
        fp = ((pred == c) & (target != c)).sum()
        fn = ((pred != c) & (target == c)).sum()
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return float(np.mean(f1s))


def evaluate(model, x_val, y_val):
    """Run the network over every full-length validation recording."""
    model.eval
    preds = []
    with torch.no_grad():
        for rec in x_val:
            logits = model(torch.from_numpy(rec)[None, None])
            preds.append(logits.argmax(1)[0].numpy())
    model.train()
    return event_f1(np.stack(preds), y_val)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="unet.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed

    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    rng = np.random.default_rng(cfg["seed"])
    x_tr, y_tr = simulate_set(cfg["n_train_recordings"], cfg["recording_len"], seed=cfg["seed"])
    x_va, y_va = simulate_set(cfg["n_val_recordings"], cfg["recording_len"], seed=cfg["seed"] + 50)
    print("label mix (train):", np.bincount(y_tr.ravel(), minlength=3) / y_tr.size)

    model = UNet1d(len(CLASSES), cfg["base_channels"], cfg["dropout"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=cfg["epochs"])
    class_w = torch.tensor([0.3, 1.0, 1.0])   # background dominates

    t0 = time.time()
    for epoch in range(1, cfg["epochs"] + 1):
        xb_all, yb_all = random_crops(x_tr, y_tr, cfg["crops_per_epoch"], cfg["crop_len"], rng)
        tot = 0.0
        for k in range(0, len(xb_all), cfg["batch_size"]):
            xb, yb = xb_all[k:k + cfg["batch_size"]], yb_all[k:k + cfg["batch_size"]]
            loss = F.cross_entropy(model(xb), yb, weight=class_w)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        sched.step()
        n_batches = len(xb_all) // cfg["batch_size"]
        msg = f"epoch {epoch}  loss {tot / n_batches:.4f}"
        if epoch % 2 == 0:
            msg += f"  val_event_f1 {evaluate(model, x_va, y_va):.4f}"
        print(msg + f"  ({time.time() - t0:.0f}s)")

    print(f"METRIC val_event_f1={evaluate(model, x_va, y_va):.4f}")


if __name__ == "__main__":
    main()
