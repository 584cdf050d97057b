import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F

from data import make_windows, simulate
from model import KoopmanAE


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    dc, mc, tc = cfg["data"], cfg["model"], cfg["train"]

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    train_traj = simulate(dc["n_train_traj"], dc["length"], dc["dt"], dc["mu"], dc["obs_noise"], rng)
    val_traj = simulate(dc["n_val_traj"], dc["length"], dc["dt"], dc["mu"], dc["obs_noise"], rng)

    xtr, ytr = make_windows(train_traj, dc["history"], dc["horizon"])
    xva, yva = make_windows(val_traj, dc["history"], dc["horizon"])
    scale = float(np.abs(xtr).max())
    xtr, ytr, xva, yva = (torch.from_numpy(a / scale) for a in (xtr, ytr, xva, yva))
    print(f"windows: train={len(xtr)} val={len(xva)} scale={scale:.2f}")

    model = KoopmanAE(dc["history"], mc["latent"], mc["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=tc["lr"])
    H = dc["horizon"]
    n = len(xtr)

    for epoch in range(tc["epochs"]):
        model.train()
        perm = torch.randperm(n)
        tot = 0.0
        for i in range(0, n, tc["batch_size"]):
            idx = perm[i:i + tc["batch_size"]]
            xb, yb = xtr[idx], ytr[idx]
            recon, preds, zs = model(xb, H)
            l_recon = F.mse_loss(recon, xb[:, -1])
            l_pred = F.mse_loss(preds, yb)
            # latent linearity: K^k z_t should match the encoding of the shifted window
            with torch.no_grad():
                shifted = torch.cat([xb[:, 1:], yb[:, :1]], dim=1)
                z_next = model.encode(shifted)
            l_lin = F.mse_loss(zs[:, 0], z_next)
            loss = tc["w_recon"] * l_recon + tc["w_pred"] * l_pred + tc["w_lin"] * l_lin
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        if epoch % 10 == 9:
            print(f"epoch {epoch+1} loss={tot/n:.5f}")

    model.eval()
    with torch.no_grad():
        _, preds, _ = model(xva, H)
        nmse = ((preds - yva) ** 2).mean() / yva.var()
    print(f"val_nmse={nmse.item():.5f}")


if __name__ == "__main__":
    main()
