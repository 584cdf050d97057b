"""Train the radar -> gauge regressor."""
import argparse
import json
import time

import torch
import torch.nn as nn

from synth import make_pairs

DBZ_MEAN, DBZ_STD = 20.0, 12.0


class PatchNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3), nn.ReLU(),                # 7x7
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(32 * 7 * 7, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.head(self.conv((x - DBZ_MEAN) / DBZ_STD))


def weighted_mse(pred, target, heavy_weight):
    """MSE in log1p space with extra weight on heavy-rain samples."""
    w = 1.0 + heavy_weight * target
    return (w * (pred - target) ** 2).sum() / w.sum()


def rmse_mmh(model, x, rate):
    model.eval()
    with torch.no_grad():
        est = torch.expm1(model(x).squeeze(1)).clamp(min=0)
    model.train()
    return ((est - rate) ** 2).mean().sqrt().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    cfg = json.load(open(a.settings))
    if a.seed is not None:
        cfg["seed"] = a.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)
    t0 = time.time()

    xtr, rtr = make_pairs(cfg["n_train"], seed=11)
    xva, rva = make_pairs(cfg["n_val"], seed=12)
    ytr = torch.log1p(rtr)

    model = PatchNet()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    n = len(ytr)
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(n)
        for i in range(0, n, cfg["batch_size"]):
            idx = perm[i : i + cfg["batch_size"]]
            pred = model(xtr[idx])
            loss = weighted_mse(pred, ytr[idx], cfg["heavy_rain_weight"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 0 or epoch == cfg["epochs"] - 1:
            print(f"epoch {epoch:2d} loss {loss.item():.4f} val_rmse_mmh {rmse_mmh(model, xva, rva):.3f}")

    base = ((rva - rtr.mean()) ** 2).mean().sqrt().item()
    print(f"climatology_rmse_mmh={base:.3f}  ({time.time() - t0:.1f}s)")
    print(f"val_rmse_mmh={rmse_mmh(model, xva, rva):.3f}")


if __name__ == "__main__":
    main()
