import argparse
import copy
import numpy as np
import torch
import torch.nn as nn


def winters(seed):
    rng = np.random.default_rng(seed)
    n = 60 * 40
    fdd = rng.uniform(800, 3000, n)
    snow = rng.uniform(10, 120, n)
    thaw = rng.uniform(0, 80, n)
    lat = rng.uniform(55, 68, n)
    doy = 95 + 0.012 * fdd + 0.08 * snow - 0.25 * thaw + 2.0 * (lat - 55) + rng.normal(0, 3, n)
    X = np.stack([fdd / 1000, snow / 50, thaw / 40, (lat - 60) / 5], 1).astype(np.float32)
    return X, doy.astype(np.float32)


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, p in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(p.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--ema", type=float, default=0.98)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    X, y = map(torch.from_numpy, winters(3))
    idx = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
    tr, va = idx[:1900], idx[1900:]
    ymu, ysd = y[tr].mean(), y[tr].std()
    model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        perm = tr[torch.randperm(len(tr), generator=g)]
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = nn.functional.mse_loss(model(X[b]).squeeze(1), (y[b] - ymu) / ysd)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, a.ema)
        with torch.no_grad():
            mae = ((ema(X[va]).squeeze(1) * ysd + ymu) - y[va]).abs().mean().item()
        if ep % 10 == 9:
            print(f"epoch {ep+1} loss {loss.item():.4f} val_mae_days {mae:.3f}")
    print(f"val_mae_days={mae:.3f}")


if __name__ == "__main__":
    main()
