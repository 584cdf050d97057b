import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class IMUWindows(Dataset):
    def __init__(self, n_users, per_user, seed):
        rng = np.random.default_rng(seed)
        style = np.random.default_rng(5).normal(0, 1, (n_users, 4))
        t = np.linspace(0, 1, 64)
        xs, ys = [], []
        for u in range(n_users):
            f, tilt, jerk, ph = 3 + style[u, 0], style[u, 1], style[u, 2], style[u, 3]
            for _ in range(per_user):
                base = np.sin(2 * np.pi * f * rng.uniform(0.95, 1.05) * t + ph + rng.normal(0, 0.3))
                w = np.stack([base, np.cos(2 * np.pi * f * t) * jerk, tilt + 0 * t,
                              base ** 2, jerk * t, np.roll(base, 5)])
                xs.append(w + rng.normal(0, 0.5, w.shape))
                ys.append(u)
        self.x = torch.tensor(np.array(xs), dtype=torch.float32)
        self.y = torch.tensor(ys)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def make_model(n_users):
    return nn.Sequential(
        nn.Conv1d(6, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
        nn.Conv1d(32, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        nn.Flatten(), nn.Linear(32, n_users))


def evaluate(model, loader):
    model.eval()
    hit = n = 0
    with torch.no_grad():
        for x, y in loader:
            hit += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)

    train_ds = IMUWindows(cfg["n_users"], cfg["windows_per_user"], cfg["seed"])
    val_ds = IMUWindows(cfg["n_users"], 20, cfg["seed"] + 1000)
    train_dl = DataLoader(train_ds, batch_size=cfg["micro_batch"], shuffle=True,
                          num_workers=cfg["num_workers"], persistent_workers=True)
    val_dl = DataLoader(val_ds, batch_size=128, num_workers=0)

    model = make_model(cfg["n_users"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    accum = cfg["accum_steps"]
    for epoch in range(cfg["epochs"]):
        model.train()
        opt.zero_grad()
        for step, (x, y) in enumerate(train_dl):
            loss = F.cross_entropy(model(x), y) / accum
            loss.backward()
            if (step + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
        print(f"epoch {epoch + 1} loss {loss.item() * accum:.4f} val_acc {evaluate(model, val_dl):.3f}")
    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
