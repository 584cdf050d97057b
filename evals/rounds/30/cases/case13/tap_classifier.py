import json
import sys
import zlib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PRODUCTS = ["adult", "child", "senior", "weekly", "tourist"]
HABITS = {  # (preferred hours, n_stops in home area, taps per day)
    0: ([7, 8, 17, 18], 4, 4), 1: ([7, 8, 15], 3, 3), 2: ([10, 11, 13, 14], 6, 2),
    3: ([6, 7, 18, 19], 3, 5), 4: ([10, 12, 14, 16, 20], 40, 6)}


def tap_token(stop, hour, buckets):
    return zlib.crc32(f"{stop}@{hour // 2}".encode()) % buckets


def card_days(n, rng, buckets):
    x = np.zeros((n, buckets), dtype=np.float32)
    y = rng.integers(0, 5, size=n)
    for i in range(n):
        hours, n_stops, k = HABITS[int(y[i])]
        home = rng.integers(0, 200)
        for _ in range(max(1, rng.poisson(k))):
            h = rng.choice(hours) if rng.random() < 0.7 else rng.integers(5, 23)
            x[i, tap_token(home + rng.integers(0, n_stops), h, buckets)] += 1.0
    return torch.from_numpy(np.log1p(x)), torch.from_numpy(y)


def main(path):
    cfg = json.load(open(path))
    if len(sys.argv) > 2:
        cfg["seed"] = int(sys.argv[2])
    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(cfg["seed"])
    xtr, ytr = card_days(3000, rng, cfg["hash_buckets"])
    xva, yva = card_days(600, rng, cfg["hash_buckets"])
    model = nn.Sequential(nn.Linear(cfg["hash_buckets"], cfg["hidden"]), nn.ReLU(), nn.Linear(cfg["hidden"], 5))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg["lr_decay_every"], gamma=cfg["lr_decay_gamma"])
    for ep in range(cfg["epochs"]):
        perm = torch.randperm(len(xtr))
        for i in range(0, len(xtr), cfg["batch_size"]):
            b = perm[i:i + cfg["batch_size"]]
            loss = F.cross_entropy(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        print(f"epoch {ep} loss {loss.item():.3f} lr {opt.param_groups[0]['lr']:.2e}")
    with torch.no_grad():
        acc = (model(xva).argmax(1) == yva).float().mean().item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "settings.json")
