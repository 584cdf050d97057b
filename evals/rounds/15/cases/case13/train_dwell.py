import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

from features import featurize


class DwellModel(nn.Module):
    def __init__(self, n_exhibits, n_numeric, embed_dim, hidden):
        super().__init__()
        self.exhibit = nn.Embedding(n_exhibits, embed_dim)
        self.mlp = nn.Sequential(
            nn.Linear(embed_dim + n_numeric, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, ex, num):
        return self.mlp(torch.cat([self.exhibit(ex), num], dim=1)).squeeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="dwell.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    if not os.path.exists("data/visits.json"):
        subprocess.run([sys.executable, "make_logs.py", str(cfg["n_exhibits"]), str(cfg["n_visits"])], check=True)
    visits = json.load(open("data/visits.json"))

    rng = np.random.default_rng(cfg["seed"])
    order = rng.permutation(len(visits))
    n_val = int(len(visits) * cfg["val_fraction"])
    val = [visits[i] for i in order[:n_val]]
    train = [visits[i] for i in order[n_val:]]

    ex_tr, num_tr, y_tr = featurize(train, cfg["numeric_features"], cfg["closing_minute"])
    ex_va, num_va, y_va = featurize(val, cfg["numeric_features"], cfg["closing_minute"])
    mu, sd = num_tr.mean(0), num_tr.std(0) + 1e-6
    num_tr, num_va = (num_tr - mu) / sd, (num_va - mu) / sd
    t = lambda a: torch.from_numpy(a)
    ex_tr, num_tr, y_tr, ex_va, num_va, y_va = map(t, (ex_tr, num_tr, y_tr, ex_va, num_va, y_va))

    torch.manual_seed(cfg["seed"])
    model = DwellModel(cfg["n_exhibits"], num_tr.shape[1], cfg["embed_dim"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_fn = nn.L1Loss()
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(y_tr))
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            loss = loss_fn(model(ex_tr[b], num_tr[b]), y_tr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            mae = (model(ex_va, num_va) - y_va).abs().mean().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} train_l1 {loss.item():.3f} val_mae {mae:.3f}")
    print(f"val_mae_min={mae:.4f}")


if __name__ == "__main__":
    main()
