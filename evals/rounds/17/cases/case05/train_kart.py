import sys
import tomllib

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from telemetry import COMPOUNDS, simulate_laps


class KartNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(5, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(4), nn.Flatten(),
        )
        self.lap_head = nn.Linear(4 * width, 1)
        self.compound_head = nn.Sequential(nn.Linear(4 * width, width), nn.ReLU(),
                                           nn.Linear(width, len(COMPOUNDS)))

    def forward(self, x):
        z = self.encoder(x)
        return {"lap": self.lap_head(z).squeeze(-1), "compound": self.compound_head(z)}


class MultiTaskObjective:
    def __init__(self, aux_weights):
        self.aux_weights = dict(aux_weights)
        self.log = []

    def __call__(self, out, batch):
        parts = {
            "lap": F.mse_loss(out["lap"], batch["lap"]),
            "compound": F.cross_entropy(out["compound"], batch["compound"]),
        }
        scalars = {k: v.item() for k, v in parts.items()}
        self.log.append(scalars)
        total = parts["lap"]
        for name, w in self.aux_weights.items():
            total = total + w * scalars[name]
        return total


def evaluate(model, X, lap, comp, lap_mu, lap_sd):
    model.eval()
    with torch.no_grad():
        out = model(X)
    mae = ((out["lap"] * lap_sd + lap_mu) - lap).abs().mean().item()
    acc = (out["compound"].argmax(1) == comp).float().mean().item()
    return mae, acc


def main():
    with open(sys.argv[1] if len(sys.argv) > 1 else "kart.toml", "rb") as f:
        cfg = tomllib.load(f)
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else cfg["data"]["seed"]
    torch.manual_seed(seed)
    X, lap, comp = simulate_laps(cfg["data"]["laps"], cfg["data"]["samples_per_lap"], seed)
    X, lap, comp = torch.from_numpy(X), torch.from_numpy(lap), torch.from_numpy(comp).long()
    n_val = int(len(X) * cfg["data"]["val_fraction"])
    Xtr, lap_tr, comp_tr = X[n_val:], lap[n_val:], comp[n_val:]
    Xva, lap_va, comp_va = X[:n_val], lap[:n_val], comp[:n_val]
    lap_mu, lap_sd = lap_tr.mean(), lap_tr.std()

    model = KartNet(cfg["model"]["width"])
    tcfg = cfg["train"]
    opt = torch.optim.Adam(model.parameters(), lr=tcfg["lr"])
    objective = MultiTaskObjective(tcfg["aux_weights"])
    for epoch in range(tcfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), tcfg["batch_size"]):
            idx = perm[i:i + tcfg["batch_size"]]
            batch = {"lap": (lap_tr[idx] - lap_mu) / lap_sd, "compound": comp_tr[idx]}
            opt.zero_grad()
            loss = objective(model(Xtr[idx]), batch)
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            recent = objective.log[-20:]
            mae, acc = evaluate(model, Xva, lap_va, comp_va, lap_mu, lap_sd)
            print(f"epoch {epoch + 1} lap_loss={np.mean([r['lap'] for r in recent]):.4f} "
                  f"compound_loss={np.mean([r['compound'] for r in recent]):.4f} "
                  f"val_mae={mae:.3f}s val_acc={acc:.3f}")
    mae, acc = evaluate(model, Xva, lap_va, comp_va, lap_mu, lap_sd)
    print(f"val_lap_mae_s={mae:.4f}")
    print(f"val_compound_acc={acc:.4f}")


if __name__ == "__main__":
    main()
