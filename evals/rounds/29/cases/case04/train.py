import json
import sys

import torch
import torch.nn as nn

from portfolio import policies


class RateNet(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh(),
                                  nn.Linear(hidden, 1))

    def forward(self, x, exposure):
        log_rate = self.body(x).squeeze(-1)
        return log_rate + torch.log(exposure)      # log of expected claims


def poisson_deviance(log_mu, y):
    mu = log_mu.exp()
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return (2 * (term - (y - mu))).mean()


def main(path):
    cfg = json.load(open(path))
    if len(sys.argv) > 2:
        cfg["seed"] = int(sys.argv[2])
    torch.manual_seed(cfg["seed"])
    X, expo, y = map(torch.from_numpy, policies(cfg["n_policies"], cfg["seed"]))
    n_tr = int(0.8 * len(y))

    model = RateNet(X.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), **cfg["optimizer"])
    sched = torch.optim.lr_scheduler.StepLR(opt, **cfg["schedule"])
    nll = nn.PoissonNLLLoss(log_input=True, full=False)

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, cfg["batch_size"]):
            j = perm[i:i + cfg["batch_size"]]
            loss = nll(model(X[j], expo[j]), y[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 5 == 0:
            with torch.no_grad():
                dev = poisson_deviance(model(X[:n_tr], expo[:n_tr]), y[:n_tr]).item()
            print(f"epoch {epoch:2d} lr {opt.param_groups[0]['lr']:.2e} train_dev {dev:.4f}")

    with torch.no_grad():
        dev = poisson_deviance(model(X[n_tr:], expo[n_tr:]), y[n_tr:]).item()
        null = poisson_deviance(torch.log(y[:n_tr].sum() / expo[:n_tr].sum() * expo[n_tr:]), y[n_tr:]).item()
    print(f"null-model deviance {null:.4f}")
    print(f"val_deviance={dev:.4f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "params.json")
