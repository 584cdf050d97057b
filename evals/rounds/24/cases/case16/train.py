import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from data import simulate_lagoon, make_windows, train_val_split


class Forecaster(nn.Module):
    def __init__(self, lookback, n_chan, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(),
            nn.Linear(lookback * n_chan, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    np.random.seed(seed)

    sal, rain, inflow = simulate_lagoon(cfg["data"]["n_days"], seed)
    X, y, persist = make_windows(sal, rain, inflow, cfg)
    (Xtr, ytr, _), (Xva, yva, pva) = train_val_split(X, y, persist, cfg["data"]["val_fraction"])

    # standardise with training statistics only
    mu = Xtr.reshape(-1, 3).mean(0)
    sd = Xtr.reshape(-1, 3).std(0) + 1e-6
    y_mu, y_sd = ytr.mean(), ytr.std()
    to_t = lambda a: torch.tensor(a, dtype=torch.float32)
    Xtr_t, Xva_t = to_t((Xtr - mu) / sd), to_t((Xva - mu) / sd)
    ytr_t = to_t((ytr - y_mu) / y_sd)

    model = Forecaster(cfg["forecast"]["lookback"], 3, cfg["model"]["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["train"]["lr"])
    loss_fn = nn.MSELoss()
    bs = cfg["train"]["batch_size"]
    g = torch.Generator().manual_seed(seed)

    for epoch in range(cfg["train"]["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr_t), generator=g)
        total = 0.0
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            opt.zero_grad()
            loss = loss_fn(model(Xtr_t[idx]), ytr_t[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 5 == 0 or epoch == cfg["train"]["epochs"] - 1:
            print(f"epoch {epoch:3d} train_mse={total / len(perm):.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(Xva_t).numpy() * y_sd + y_mu
    mae = float(np.abs(pred - yva).mean())
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
