import argparse
import json

import torch
import torch.nn.functional as F

from .crystals import generate
from .model import SpinelNet


def main():
    ap = argparse.ArgumentParser(prog="spinelnet.train")
    ap.add_argument("--config", default="configs/base.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    species, energy, edges = generate(cfg["n_train"] + cfg["n_val"], seed=seed)
    species = torch.as_tensor(species)
    energy = torch.as_tensor(energy)
    mu, sd = energy[:cfg["n_train"]].mean(), energy[:cfg["n_train"]].std()
    target = (energy - mu) / sd
    tr, va = slice(0, cfg["n_train"]), slice(cfg["n_train"], None)

    model = SpinelNet(cfg["hidden"], cfg["layers"], edges)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=cfg["epochs"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(cfg["n_train"])
        tot = 0.0
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            opt.zero_grad()
            loss = F.mse_loss(model(species[tr][b]), target[tr][b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        sched.step()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} train_mse={tot / len(perm):.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(species[va]) * sd + mu
    mae_mev = 1000 * (pred - energy[va]).abs().mean().item()
    print(f"val_mae={mae_mev:.1f}")


if __name__ == "__main__":
    main()
