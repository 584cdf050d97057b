import argparse
import tomllib

import torch
from torch.utils.data import DataLoader, TensorDataset

from hailnet.data import load_split
from hailnet.losses import log_space_mse, mae_mm
from hailnet.model import mlp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="hail.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    tcfg = cfg["train"]
    seed = tcfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    (xtr, ytr), (xva, yva) = load_split(cfg["data"]["path"], cfg["data"]["val_fraction"])
    dl = DataLoader(TensorDataset(xtr, ytr), batch_size=tcfg["batch_size"], shuffle=True)
    model = mlp(xtr.shape[1], cfg["model"]["hidden"], cfg["model"]["dropout"])
    opt = torch.optim.Adam(model.parameters(), lr=tcfg["lr"], weight_decay=tcfg["weight_decay"])

    for epoch in range(tcfg["epochs"]):
        model.train()
        for xb, yb in dl:
            loss = log_space_mse(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                pv = model(xva).squeeze(1)
                print(f"epoch {epoch + 1:3d}  train_loss {loss.item():.4f}  "
                      f"val_log_rmse {torch.sqrt(((pv - yva) ** 2).mean()).item():.4f}  "
                      f"val_mae_mm {mae_mm(pv, yva).item():.3f}")
    model.eval()
    with torch.no_grad():
        pv = model(xva).squeeze(1)
    print(f"val_mae_mm={mae_mm(pv, yva).item():.4f}")


if __name__ == "__main__":
    main()
