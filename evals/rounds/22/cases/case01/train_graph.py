import argparse
import json

import torch

from garnet.model import GarnetNet
from garnet.structures import simulate
from garnet.utils import batches, freeze_by_prefix


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="garnet.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    species, adj, y = map(torch.from_numpy, simulate(cfg["n_structures"], cfg["cutoff"], seed=17))
    n_val = int(len(y) * cfg["val_fraction"])
    tr, va = slice(n_val, None), slice(0, n_val)
    y_mu, y_sd = y[tr].mean(), y[tr].std()

    model = GarnetNet(cfg["hidden"], cfg["n_interactions"])
    freeze_by_prefix(model, cfg["freeze"])
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])
    g = torch.Generator().manual_seed(seed)
    s_tr, a_tr, y_tr = species[tr], adj[tr], (y[tr] - y_mu) / y_sd
    for epoch in range(cfg["epochs"]):
        model.train()
        for idx in batches(len(y_tr), cfg["batch_size"], g):
            loss = torch.nn.functional.mse_loss(model(s_tr[idx], a_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(species[va], adj[va]) * y_sd + y_mu
            mae = (pred - y[va]).abs().mean().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1:3d}  loss {loss.item():.4f}  val_mae {mae:.4f}")
    print(f"baseline (predict mean) mae: {(y[va] - y_mu).abs().mean().item():.4f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
