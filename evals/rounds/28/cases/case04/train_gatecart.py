import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader

from stadium import CartDays, simulate


class GateCartNet(nn.Module):
    def __init__(self, n_gates, gate_dim, n_x, hidden):
        super().__init__()
        self.gate_emb = nn.Embedding(n_gates, gate_dim)
        self.trunk = nn.Sequential(nn.Linear(gate_dim + n_x, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.units_head = nn.Linear(hidden, 1)
        self.soldout_head = nn.Linear(hidden, 1)

    def forward(self, gate, x):
        h = self.trunk(torch.cat([self.gate_emb(gate), x], dim=1))
        return {"units": self.units_head(h).squeeze(1), "sold_out_logit": self.soldout_head(h).squeeze(1)}


def multitask_loss(out, batch, weights):
    units = F.mse_loss(out["units"], batch["units"])
    sold_out = F.binary_cross_entropy_with_logits(batch["sold_out"], out["sold_out_logit"])
    return weights["units"] * units + weights["sold_out"] * sold_out, units.item(), sold_out.item()


@torch.no_grad()
def evaluate(model, ds):
    model.eval()
    out = model(ds.gate, ds.x)
    y = ds.units
    r2 = 1 - ((out["units"] - y) ** 2).sum() / ((y - y.mean()) ** 2).sum()
    acc = ((out["sold_out_logit"] > 0).float() == ds.sold_out).float().mean()
    model.train()
    return r2.item(), acc.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.settings))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    table = simulate(cfg["n_gates"], cfg["n_days"], cfg["stock_per_cart"], cfg["seed"])
    n_train_days = int(cfg["n_days"] * 0.8)
    split = n_train_days * cfg["n_gates"]
    tr, va = table[:split], table[split:]
    mu, sd = tr[:, 6].mean(), tr[:, 6].std()
    train_ds, val_ds = CartDays(tr, mu, sd), CartDays(va, mu, sd)
    print(f"train={len(train_ds)} val={len(val_ds)} sold-out rate={tr[:, 7].mean():.2f}")

    loader = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True)
    model = GateCartNet(cfg["n_gates"], cfg["gate_dim"], train_ds.x.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        for batch in loader:
            out = model(batch["gate"], batch["x"])
            loss, lu, ls = multitask_loss(out, batch, cfg["loss_weights"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 4:
            r2, acc = evaluate(model, val_ds)
            print(f"epoch {epoch + 1} units_loss={lu:.3f} soldout_loss={ls:.3f} val_units_r2={r2:.3f} val_soldout_acc={acc:.3f}")
    r2, acc = evaluate(model, val_ds)
    print(f"val_units_r2={r2:.4f} val_soldout_acc={acc:.4f}")


if __name__ == "__main__":
    main()
