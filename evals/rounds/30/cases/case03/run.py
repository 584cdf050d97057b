import argparse
import json
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from unicycle.data import IMUWindows, simulate
from unicycle.model import BalanceCNN


def split(x, y, frac, seed):
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(y))
    n_val = int(frac * len(y))
    va, tr = np.sort(idx[:n_val]), np.sort(idx[n_val:])
    return (x[tr], y[tr]), (x[va], y[va])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    if a.seed is not None:
        cfg["seed"] = a.seed
    torch.manual_seed(cfg["seed"])
    x, y = simulate(cfg["n_per_class"], cfg["seed"])
    (xtr, ytr), (xva, yva) = split(x, y, 0.25, cfg["seed"])
    train_dl = DataLoader(IMUWindows(xtr, ytr), batch_size=cfg["batch_size"],
                          num_workers=cfg["workers"], persistent_workers=True)
    val_dl = DataLoader(IMUWindows(xva, yva), batch_size=256)
    model = BalanceCNN()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for ep in range(cfg["epochs"]):
        model.train()
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {ep} last_loss {loss.item():.3f}")
    model.eval()
    correct = n = 0
    with torch.no_grad():
        for xb, yb in val_dl:
            correct += (model(xb).argmax(1) == yb).sum().item()
            n += len(yb)
    print(f"val_acc={correct / n:.4f}")


if __name__ == "__main__":
    main()
