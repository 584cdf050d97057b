import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def simulate_logs(n_days, seed):
    rng = np.random.default_rng(seed)
    d = np.arange(n_days)
    sales = 80 + 30 * (d % 7 >= 5) + 15 * np.sin(2 * np.pi * d / 60) + rng.normal(0, 8, n_days)
    for t in range(1, n_days):
        sales[t] += 0.5 * (sales[t - 1] - 90)
    missing = rng.random(n_days) < 0.15
    logged = np.where(missing, np.nan, sales)
    return logged.astype(np.float32), sales.astype(np.float32)


def windows(logged, sales, w=14):
    xs, ys = [], []
    thr = np.median(sales)
    for t in range(w, len(sales) - 1):
        hist = logged[t - w:t]
        miss = np.isnan(hist).astype(np.float32)
        vals = np.nan_to_num((hist - 90) / 25, nan=0.0)
        dow = np.eye(7, dtype=np.float32)[(t + 1) % 7]
        xs.append(np.concatenate([vals, miss, dow]))
        ys.append(float(sales[t + 1] > thr))
    return torch.tensor(np.array(xs), dtype=torch.float32), torch.tensor(ys)


class BusyNet(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


@torch.no_grad()
def ema_update(ema, model, decay=0.95):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    logged, sales = simulate_logs(1500, args.seed)
    x, y = windows(logged, sales)
    n_tr = 1100
    model = BusyNet(x.shape[1])
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)   # the EMA copy is only ever written by ema_update
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n_tr)
        for b in range(0, n_tr, 32):
            idx = perm[b:b + 32]
            loss = F.binary_cross_entropy_with_logits(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model)
        sched.step()
        ema.eval()
        with torch.no_grad():
            acc = ((ema(x[n_tr:]) > 0).float() == y[n_tr:]).float().mean().item()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
