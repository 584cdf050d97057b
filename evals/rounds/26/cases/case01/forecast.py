import argparse
import tomllib

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from springdata import spring_record, windows


class MLPForecaster(nn.Module):
    def __init__(self, lookback, n_ch, hidden):
        super().__init__()
        self.body = nn.Sequential(
            nn.Flatten(), nn.Linear(lookback * n_ch, hidden), nn.LayerNorm(hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def train_one_epoch(model, loader, opt, sched, loss_fn):
    model.train()
    total, n = 0.0, 0
    for xb, yb in loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        sched.step()
        total += loss.item() * len(yb)
        n += len(yb)
    return total / n


@torch.no_grad()
def evaluate(model, x, y, y_mu, y_sd):
    model.eval()
    return (model(x) * y_sd + y_mu - y).abs().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="onsen.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    d, m, o = cfg["data"], cfg["model"], cfg["optim"]

    rec = spring_record(d["hours"], seed)
    x, y = windows(rec, d["lookback"], d["horizon"])
    cut = int(0.8 * len(x))
    mu = x[:cut].reshape(-1, 2).mean(0)
    sd = x[:cut].reshape(-1, 2).std(0)
    y_mu, y_sd = float(y[:cut].mean()), float(y[:cut].std())
    xt = torch.from_numpy((x - mu) / sd).float()
    yt = torch.from_numpy(y)
    loader = DataLoader(TensorDataset(xt[:cut], (yt[:cut] - y_mu) / y_sd),
                        batch_size=o["batch_size"], shuffle=True)

    model = MLPForecaster(d["lookback"], 2, m["hidden"])
    opt = torch.optim.AdamW(model.parameters(), lr=o["lr"], weight_decay=o["weight_decay"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=o["decay_every"], gamma=o["decay_gamma"])
    loss_fn = nn.MSELoss()

    for epoch in range(o["epochs"]):
        tr_loss = train_one_epoch(model, loader, opt, sched, loss_fn)
        mae = evaluate(model, xt[cut:], yt[cut:], y_mu, y_sd)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} train_mse={tr_loss:.4f} val_mae_c={mae:.4f} lr={opt.param_groups[0]['lr']:.2e}")
    persistence = (xt[cut:, -1, 0] * sd[0] + mu[0] - yt[cut:]).abs().mean().item()
    print(f"persistence baseline mae={persistence:.4f}")
    print(f"val_mae_c={mae:.4f}")


if __name__ == "__main__":
    main()
