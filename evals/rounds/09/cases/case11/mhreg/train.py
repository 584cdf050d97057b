import argparse
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

from .data import simulate_station
from .model import MultiHeadRegressor
from .scaling import TargetScaler


def evaluate(model, x, y_true, heads, scaler_path):
    """Predictions in physical units, using the saved scalers like inference does."""
    scaler = TargetScaler.load(scaler_path)
    model.eval()
    with torch.no_grad():
        z = model(torch.from_numpy(x)).numpy()
    pred = scaler.inverse(z)
    mae = np.abs(pred - y_true).mean(0)
    spread = y_true.std(0)
    return {h: float(m) for h, m in zip(heads, mae)}, float((mae / spread).mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/base.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])

    x_tr, y_tr = simulate_station(cfg["n_train"], rng)
    x_va, y_va = simulate_station(cfg["n_val"], rng)
    scaler = TargetScaler(cfg["heads"]).fit(y_tr)
    scaler_path = os.path.join(cfg["artifacts"], "scalers.json")
    scaler.save(scaler_path)

    xt = torch.from_numpy(x_tr)
    zt = torch.from_numpy(scaler.transform(y_tr))
    model = MultiHeadRegressor(x_tr.shape[1], cfg["trunk"], cfg["head_hidden"], len(cfg["heads"]))
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            loss = F.mse_loss(model(xt[idx]), zt[idx])  # equal weight per standardised head
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            per_head, rel = evaluate(model, x_va, y_va, cfg["heads"], scaler_path)
            shown = " ".join(f"{h}={v:.3f}" for h, v in per_head.items())
            print(f"epoch {epoch + 1:2d} train_mse {loss.item():.4f} val_mae[{shown}] rel {rel:.4f}")

    per_head, rel = evaluate(model, x_va, y_va, cfg["heads"], scaler_path)
    torch.save(model.state_dict(), os.path.join(cfg["artifacts"], "model.pt"))
    for h, v in per_head.items():
        print(f"val_mae_{h}={v:.4f}")
    print(f"val_rel_mae={rel:.4f}")


if __name__ == "__main__":
    main()
