import argparse
import datetime as dt
import json

import numpy as np
import torch
import torch.nn as nn


def load_holidays(path="holidays.json"):
    h = json.load(open(path))
    return {tuple(md) for md in h["fixed"]}, set(h["floating_doy"])


def simulate_demand(years, seed):
    rng = np.random.default_rng(seed)
    fixed, floating = load_holidays()
    start = dt.date(2019, 1, 1)
    days = [start + dt.timedelta(d) for d in range(365 * years)]
    doy = np.array([d.timetuple().tm_yday for d in days])
    dow = np.array([d.weekday() for d in days])
    month = np.array([d.month for d in days])
    holiday = np.array([((d.month, d.day) in fixed) or (d.timetuple().tm_yday in floating) for d in days])
    temp = 14 - 10 * np.cos(2 * np.pi * (doy - 15) / 365) + rng.normal(0, 3, len(days))
    rain = rng.gamma(0.6, 4, len(days)) * (rng.random(len(days)) < 0.35)
    trend = 1 + 0.08 * np.arange(len(days)) / 365
    weekday_factor = np.where(dow < 5, 1.0, 0.8)
    comfort = np.exp(-((temp - 22) ** 2) / 120)
    demand = 4000 * trend * weekday_factor * (0.3 + comfort) * np.exp(-0.08 * rain)
    demand = demand * np.where(holiday, 0.55, 1.0) * rng.lognormal(0, 0.06, len(days))
    return dict(doy=doy, dow=dow, month=month, holiday=holiday.astype(float), temp=temp, rain=rain,
                demand=demand)


def fourier(doy, t, k=3):
    cols = [np.ones_like(t), t]
    for j in range(1, k + 1):
        cols += [np.sin(2 * np.pi * j * doy / 365), np.cos(2 * np.pi * j * doy / 365)]
    return np.stack(cols, 1).astype(np.float32)


class SeasonalBaseline(nn.Module):
    """Log-demand Fourier regression; fitted once, then frozen."""

    def __init__(self, n_basis):
        super().__init__()
        self.coef = nn.Parameter(torch.zeros(n_basis))

    def fit(self, basis, log_y):
        sol = torch.linalg.lstsq(basis, log_y[:, None]).solution[:, 0]
        with torch.no_grad():
            self.coef.copy_(sol)
        self.requires_grad_(False)

    def forward(self, basis):
        return basis @ self.coef


class Residual(nn.Module):
    def __init__(self, n_dense, hidden):
        super().__init__()
        self.dow = nn.Embedding(7, 4)
        self.month = nn.Embedding(12, 3)
        self.mlp = nn.Sequential(nn.Linear(n_dense + 7, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, dow, month, dense):
        return self.mlp(torch.cat([self.dow(dow), self.month(month), dense], 1)).squeeze(-1)


def build(data, lags):
    log_d = np.log(data["demand"])
    idx = np.arange(lags, len(log_d))
    lag_feats = np.stack([log_d[idx - k] for k in range(1, lags + 1)], 1)
    dense = np.column_stack([data["holiday"][idx], data["temp"][idx] / 10, np.log1p(data["rain"][idx]),
                             lag_feats - lag_feats.mean(1, keepdims=True)])
    t = idx / 365.0
    return dict(idx=idx, dense=dense.astype(np.float32), basis=fourier(data["doy"][idx], t),
                dow=data["dow"][idx], month=data["month"][idx] - 1, log_y=log_d[idx].astype(np.float32))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    data = simulate_demand(cfg["years"], seed=7)
    b = build(data, cfg["lags"])
    T = {k: torch.from_numpy(np.asarray(v)) for k, v in b.items()}
    n_val = 365
    tr = slice(0, len(b["idx"]) - n_val)          # chronological split, last year held out
    va = slice(len(b["idx"]) - n_val, None)

    baseline = SeasonalBaseline(T["basis"].shape[1])
    baseline.fit(T["basis"][tr], T["log_y"][tr])
    with torch.no_grad():
        base_all = baseline(T["basis"])

    net = Residual(T["dense"].shape[1], cfg["hidden"])
    decay, no_decay = [], []
    for name, p in net.named_parameters():
        (no_decay if name.endswith("bias") or name.startswith(("dow", "month")) else decay).append(p)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg["weight_decay"]},
                             {"params": no_decay, "weight_decay": 0.0}], lr=cfg["max_lr"])
    n_tr = tr.stop
    steps_per_epoch = (n_tr + cfg["batch_size"] - 1) // cfg["batch_size"]
    # OneCycle is defined per optimizer step, so it is stepped every batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=cfg["max_lr"], epochs=cfg["epochs"],
                                                steps_per_epoch=steps_per_epoch)

    def predict(sl):
        return base_all[sl] + net(T["dow"][sl], T["month"][sl], T["dense"][sl])

    for epoch in range(cfg["epochs"]):
        net.train()
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, cfg["batch_size"]):
            j = perm[i:i + cfg["batch_size"]]
            pred = base_all[j] + net(T["dow"][j], T["month"][j], T["dense"][j])
            loss = ((pred - T["log_y"][j]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 10 == 9:
            net.eval()
            with torch.no_grad():
                mape = (torch.exp(predict(va)) / torch.exp(T["log_y"][va]) - 1).abs().mean().item() * 100
            print(f"epoch {epoch + 1} lr {sched.get_last_lr()[0]:.2e} train_mse {loss.item():.4f} val_mape {mape:.2f}%")

    net.eval()
    with torch.no_grad():
        base_mape = (torch.exp(base_all[va]) / torch.exp(T["log_y"][va]) - 1).abs().mean().item() * 100
        mape = (torch.exp(predict(va)) / torch.exp(T["log_y"][va]) - 1).abs().mean().item() * 100
    print(f"baseline_only_mape={base_mape:.3f}")
    print(f"val_mape={mape:.3f}")


if __name__ == "__main__":
    main()
