"""Low-cost air-quality sensor drift correction.

Each sensor box reports `channels` raw signals that drift with age, humidity
and temperature. During co-location campaigns the boxes sat next to a
reference analyser, which gives paired (before correction, reference)
readings. We learn a correction network and evaluate on boxes that were held
out entirely.
"""
import argparse
import tomllib

import numpy as np
import torch
import torch.nn as nn


def colocation_campaign(n_units, n_readings, channels, seed):
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(n_units):
        gain = 1.2 * rng.uniform(0.96, 1.04, channels)
        offset = 3.0 + rng.normal(0, 0.5, channels)
        drift_rate = rng.uniform(0.0, 0.04, channels)
        age = np.sort(rng.uniform(0, 200, n_readings))          # days in service
        temp = rng.normal(18, 7, n_readings)
        rh = rng.uniform(20, 95, n_readings)
        truth = np.abs(rng.normal(25, 12, (n_readings, channels)))  # reference values
        raw = (truth * gain * (1 + 0.004 * (rh[:, None] - 50))
               + offset + drift_rate * age[:, None] + 0.15 * (temp[:, None] - 18)
               + rng.normal(0, 0.8, (n_readings, channels)))
        for i in range(n_readings):
            rows.append((u, raw[i], np.array([age[i] / 100, (temp[i] - 18) / 7, (rh[i] - 50) / 25]), truth[i]))
    return rows


class Corrector(nn.Module):
    def __init__(self, channels, n_aux, hidden):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(channels + n_aux, hidden), nn.Tanh(),
                                 nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, channels))

    def forward(self, raw, aux):
        return raw + self.mlp(torch.cat([raw, aux], dim=-1))


def tensors(rows, units, scale):
    sel = [r for r in rows if r[0] in units]
    raw = torch.tensor(np.stack([r[1] for r in sel]) / scale, dtype=torch.float32)
    aux = torch.tensor(np.stack([r[2] for r in sel]), dtype=torch.float32)
    ref = torch.tensor(np.stack([r[3] for r in sel]) / scale, dtype=torch.float32)
    return raw, aux, ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="drift.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    d, m, t = cfg["data"], cfg["model"], cfg["train"]
    seed = t["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    rows = colocation_campaign(d["n_units"], d["n_readings"], d["channels"], d["seed"])
    units = np.random.default_rng(d["seed"]).permutation(d["n_units"])
    test_units = set(units[:d["holdout_units"]].tolist())
    train_units = set(units[d["holdout_units"]:].tolist())
    scale = 25.0
    raw_tr, aux_tr, ref_tr = tensors(rows, train_units, scale)
    raw_te, aux_te, ref_te = tensors(rows, test_units, scale)
    uncorrected = (raw_te - ref_te).abs().mean().item() * scale
    print(f"train readings {len(raw_tr)}, test readings {len(raw_te)}; uncorrected MAE {uncorrected:.2f}")

    model = Corrector(d["channels"], aux_tr.shape[1], m["hidden"])
    opt = torch.optim.SGD(model.parameters(), lr=t["lr"], momentum=t["momentum"])
    loss_fn = nn.SmoothL1Loss(beta=0.1)

    for epoch in range(t["epochs"]):
        perm = torch.randperm(len(raw_tr))
        for step, start in enumerate(range(0, len(perm), t["batch_size"])):
            idx = perm[start:start + t["batch_size"]]
            loss = loss_fn(model(raw_tr[idx], aux_tr[idx]), ref_tr[idx])
            loss.backward()
            opt.step()
            if step % t["log_every"] == 0:
                if epoch % 10 == 0:
                    print(f"epoch {epoch:2d} step {step:3d} loss {loss.item():.5f}")
                opt.zero_grad()

    with torch.no_grad():
        mae = (model(raw_te, aux_te) - ref_te).abs().mean().item() * scale
    print(f"test_mae={mae:.4f}")


if __name__ == "__main__":
    main()
