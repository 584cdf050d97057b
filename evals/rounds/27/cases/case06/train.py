import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from portfolio import poisson_deviance, simulate


class FrequencyNet(nn.Module):
    def __init__(self, n_in, hidden, base_log_rate):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))
        nn.init.zeros_(self.net[-1].weight)
        nn.init.constant_(self.net[-1].bias, base_log_rate)

    def forward(self, x, log_exposure):
        return self.net(x).squeeze(-1) + log_exposure      # log expected claims


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="params.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    X, expo, y = simulate(cfg["n_policies"], seed)
    n_tr = int(0.8 * len(X))
    mu, sd = X[:n_tr].mean(0), X[:n_tr].std(0) + 1e-6
    X = (X - mu) / sd
    Xt, Et, Yt = torch.tensor(X), torch.log(torch.tensor(expo)), torch.tensor(y)
    base = float(np.log(y[:n_tr].sum() / expo[:n_tr].sum()))

    model = FrequencyNet(X.shape[1], cfg["hidden"], base)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg["lr_step_epochs"], gamma=cfg["lr_gamma"])
    loss_fn = nn.PoissonNLLLoss(log_input=True, full=False)

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            loss = loss_fn(model(Xt[idx], Et[idx]), Yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1}  nll {loss.item():.4f}  lr {opt.param_groups[0]['lr']:.2e}")

    with torch.no_grad():
        mu_val = torch.exp(model(Xt[n_tr:], Et[n_tr:])).numpy()
    yv, ev = y[n_tr:], expo[n_tr:]
    null_mu = ev * y[:n_tr].sum() / expo[:n_tr].sum()
    d2 = 1 - poisson_deviance(yv, mu_val) / poisson_deviance(yv, null_mu)
    print(f"val claims {int(yv.sum())}  predicted {mu_val.sum():.1f}")
    print(f"val_d2={d2:.4f}")


if __name__ == "__main__":
    main()
