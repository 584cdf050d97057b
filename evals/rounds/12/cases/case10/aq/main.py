"""Entry point: python -m aq.main --config aq_config.json"""
import argparse
import json
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from .data import COLUMNS, generate
from .trainer import Trainer


class PMRegressor(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.GELU(), nn.Linear(hidden, hidden),
                                 nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="aq_config.json")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    torch.manual_seed(args.seed)
    t0 = time.time()

    X, y_obs, y_true = generate(cfg["n_train"] + cfg["n_val"], seed=args.seed)
    n = cfg["n_train"]
    # targets in log space; clip sensor spikes at the training quantile
    y_log = np.log(y_obs)
    hi = np.quantile(y_log[:n], cfg["clip_quantile"])
    y_log = np.minimum(y_log, hi)
    X[:, -1] = np.log(X[:, -1])
    mu, sd = X[:n].mean(0), X[:n].std(0) + 1e-6
    Xs = (X - mu) / sd
    y_mu = y_log[:n].mean()

    Xtr, ytr = torch.from_numpy(Xs[:n]), torch.from_numpy((y_log[:n] - y_mu).astype(np.float32))
    Xva = torch.from_numpy(Xs[n:])
    pm_va = torch.from_numpy(y_true[n:])
    loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=cfg["batch_size"], shuffle=True)

    def evaluate(model):
        model.eval()
        with torch.no_grad():
            pm_hat = torch.exp(model(Xva) + y_mu)
        return (pm_hat - pm_va).abs().mean().item()

    model = PMRegressor(len(COLUMNS), cfg["hidden"])
    Trainer(model, cfg).fit(loader, evaluate)
    val_mae = evaluate(model)
    print(f"finished in {time.time() - t0:.1f}s (mean true pm2.5 on val {pm_va.mean():.1f})")
    print(f"METRIC val_mae={val_mae:.3f}")


if __name__ == "__main__":
    main()
