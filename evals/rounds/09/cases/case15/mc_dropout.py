"""MC-dropout regression with predictive intervals."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def simulate_mixes(n, rng):
    cement = rng.uniform(100, 540, n)
    slag = rng.uniform(0, 360, n) * (rng.random(n) < 0.5)
    ash = rng.uniform(0, 200, n) * (rng.random(n) < 0.4)
    water = rng.uniform(120, 250, n)
    sp = rng.uniform(0, 30, n) * (rng.random(n) < 0.6)
    coarse = rng.uniform(800, 1150, n)
    fine = rng.uniform(590, 990, n)
    age = rng.choice([3, 7, 14, 28, 56, 90], n)
    binder = cement + 0.6 * slag + 0.4 * ash
    wb = water / binder
    strength = (95 * np.exp(-1.6 * wb) * np.log1p(age) / np.log1p(28) + 0.15 * sp
                + rng.normal(0, 2.5 + 0.08 * cement / 10, n))
    x = np.stack([cement, slag, ash, water, sp, coarse, fine, age], 1).astype(np.float32)
    return x, strength.astype(np.float32)


class DropoutMLP(nn.Module):
    def __init__(self, d_in, hidden=128, p=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def enable_dropout(model):
    """Switch only the dropout layers back on for Monte-Carlo sampling."""
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()


@torch.no_grad()
def mc_predict(model, x, passes):
    model.eval()
    enable_dropout(model)
    samples = torch.stack([model(x) for _ in range(passes)])
    model.eval()
    return samples.mean(0), samples.std(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--passes", type=int, default=50)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--clip", type=float, default=50.0, help="safety net against rare exploding batches")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    x, y = simulate_mixes(2400, rng)
    x_tr, y_tr, x_va, y_va = x[:1800], y[:1800], x[1800:], y[1800:]
    mu, sd = x_tr.mean(0), x_tr.std(0)
    y_mu, y_sd = y_tr.mean(), y_tr.std()
    xt = torch.from_numpy((x_tr - mu) / sd)
    yt = torch.from_numpy((y_tr - y_mu) / y_sd)
    xv = torch.from_numpy((x_va - mu) / sd)

    model = DropoutMLP(x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)
    max_norm_seen = 0.0
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), 64):
            idx = perm[i:i + 64]
            loss = F.mse_loss(model(xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            max_norm_seen = max(max_norm_seen, norm.item())
            opt.step()
        if (epoch + 1) % 20 == 0:
            print(f"epoch {epoch + 1} train_mse(std units) {loss.item():.4f} max_grad_norm {max_norm_seen:.2f}")

    # aleatoric noise from the training residuals of the deterministic net
    model.eval()
    with torch.no_grad():
        resid = (model(xt) - yt).numpy() * y_sd
    noise = resid.std()

    mean, spread = mc_predict(model, xv, args.passes)
    mean = mean.numpy() * y_sd + y_mu
    total_sd = np.sqrt((spread.numpy() * y_sd) ** 2 + noise ** 2)
    lo, hi = mean - 1.645 * total_sd, mean + 1.645 * total_sd
    coverage = float(((y_va >= lo) & (y_va <= hi)).mean())
    print(f"interval_coverage90={coverage:.3f} mean_width={float((hi - lo).mean()):.2f}MPa")
    print(f"val_rmse={float(np.sqrt(((mean - y_va) ** 2).mean())):.4f}")


if __name__ == "__main__":
    main()
