import argparse
import json
import math

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from .losses import gamma_deviance
from .model import SeverityNet
from .portfolio import simulate


def load_config(path):
    with open(path) as f:
        return json.load(f)


def split(x, y, holdout, seed):
    idx = np.random.default_rng(seed).permutation(len(y))
    n_ho = int(len(y) * holdout)
    return (x[idx[n_ho:]], y[idx[n_ho:]]), (x[idx[:n_ho]], y[idx[:n_ho]])


def run_epoch(model, loader, opt):
    model.train()
    total, n = 0.0, 0
    for xb, yb in loader:
        mu = model(xb)
        loss = gamma_deviance(mu, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        n += len(yb)
    return total / n


@torch.no_grad()
def score(model, x, y):
    model.eval()
    mu = model(x)
    return gamma_deviance(y, mu).item(), (mu.sum() / y.sum()).item()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="claimsev.train")
    ap.add_argument("--config", required=True)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args(argv)
    cfg = load_config(args.config)
    dcfg, mcfg, ocfg = cfg["data"], cfg["model"], cfg["optim"]
    seed = dcfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    x, y = simulate(dcfg["n_policies"], dcfg["gamma_shape"], seed)
    (xtr, ytr), (xho, yho) = split(x, y, dcfg["holdout"], seed)
    xtr, ytr, xho, yho = map(torch.from_numpy, (xtr, ytr, xho, yho))
    print(f"{len(ytr)} train / {len(yho)} hold-out claims, mean amount {ytr.mean():.0f}")

    model = SeverityNet(x.shape[1], mcfg["hidden"], mcfg["dropout"],
                        base_log_mu=math.log(float(ytr.mean())))
    opt = torch.optim.Adam(model.parameters(), lr=ocfg["lr"], weight_decay=ocfg["weight_decay"])
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=ocfg["batch_size"], shuffle=True)

    for epoch in range(ocfg["epochs"]):
        tr = run_epoch(model, loader, opt)
        if epoch % 5 == 0 or epoch == ocfg["epochs"] - 1:
            dev, ratio = score(model, xho, yho)
            print(f"epoch {epoch:3d} train {tr:.4f} holdout_dev {dev:.4f} pred/obs {ratio:.3f}")

    dev, ratio = score(model, xho, yho)
    print(f"pred_to_obs_ratio={ratio:.3f}")
    print(f"holdout_deviance={dev:.4f}")


if __name__ == "__main__":
    main()
