import argparse
import json

import numpy as np
import torch
import torch.nn as nn

import scada


class PowerCurveNet(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def to_tensors(table, mean, std, rated):
    x = torch.from_numpy((table[:, scada.FEATURES] - mean) / std)
    y = torch.from_numpy(table[:, scada.TARGET] / rated)
    # keep the flag 2-D like the feature block, it is sliced the same way
    flag = torch.from_numpy(table[:, scada.FLAG:scada.FLAG + 1])
    return x, y, flag


def masked_mse(pred, target, flag):
    keep = 1.0 - flag
    return ((pred - target) ** 2 * keep).sum() / keep.sum().clamp(min=1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    table = scada.make_table(cfg["n_records"], cfg["curtailment_rate"], cfg["rated_kw"], cfg["seed"])
    n_val = int(len(table) * cfg["val_fraction"])
    val, train = table[:n_val], table[n_val:]
    mean = train[:, scada.FEATURES].mean(0)
    std = train[:, scada.FEATURES].std(0)

    xtr, ytr, ftr = to_tensors(train, mean, std, cfg["rated_kw"])
    xva, yva, fva = to_tensors(val, mean, std, cfg["rated_kw"])
    print(f"train {len(xtr)} records, {int(ftr.sum())} curtailed")

    model = PowerCurveNet(len(scada.FEATURES), cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(xtr))
        total = 0.0
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            loss = masked_mse(model(xtr[idx]), ytr[idx], ftr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        if epoch % 5 == 4 or epoch == cfg["epochs"] - 1:
            with torch.no_grad():
                clean = fva[:, 0] == 0
                mae = (model(xva[clean]) - yva[clean]).abs().mean().item() * cfg["rated_kw"]
            print(f"epoch {epoch + 1:3d}  train_loss {total / (len(perm) // bs + 1):.4f}  val_mae_kw {mae:.1f}")

    with torch.no_grad():
        clean = fva[:, 0] == 0
        mae = (model(xva[clean]) - yva[clean]).abs().mean().item() * cfg["rated_kw"]
    print(f"METRIC val_mae_kw={mae:.2f}")


if __name__ == "__main__":
    main()
