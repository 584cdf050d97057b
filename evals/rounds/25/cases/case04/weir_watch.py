"""Rating-curve anomaly scorer for the sluice weir."""
import argparse

import numpy as np
import torch
import torch.nn as nn

G = 9.81


def telemetry(n, rng, fault_rate=0.0):
    opening = rng.uniform(0.05, 1.2, n)          # m
    head = rng.uniform(0.3, 2.5, n)              # m above crest
    tail = head * rng.uniform(0.0, 0.9, n)       # m, submergence
    cd = 0.61 * (1 - (tail / head) ** 1.5) ** 0.385
    q = cd * 3.0 * opening * np.sqrt(2 * G * head)            # m3/s, 3 m wide gate
    q *= 1 + rng.normal(0, 0.02, n)
    fault = rng.random(n) < fault_rate
    q = np.where(fault, q * rng.choice([0.8, 1.2], n), q)
    x = np.stack([opening, head, tail], 1).astype(np.float32)
    return x, np.log(q).astype(np.float32), fault


def auroc(score, label):
    order = np.argsort(score)
    ranks = np.empty(len(score))
    ranks[order] = np.arange(1, len(score) + 1)
    pos = label.sum()
    neg = len(label) - pos
    return (ranks[label].sum() - pos * (pos + 1) / 2) / (pos * neg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(5)
    xtr, ytr, _ = telemetry(20000, rng)
    xva, yva, fva = telemetry(4000, rng, fault_rate=0.05)
    mu, sd = xtr.mean(0), xtr.std(0)
    xtr_t = torch.from_numpy((xtr - mu) / sd)
    ytr_t = torch.from_numpy(ytr)
    xva_t = torch.from_numpy((xva - mu) / sd)

    net = nn.Sequential(nn.Linear(3, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    g = torch.Generator().manual_seed(args.seed)

    running = 0.0
    for step in range(1, args.steps + 1):
        idx = torch.randint(0, len(xtr_t), (args.batch,), generator=g)
        pred = net(xtr_t[idx]).squeeze(1)
        loss = nn.functional.mse_loss(pred, ytr_t[idx])
        loss.backward()
        opt.step()
        running += loss.item()
        if step % args.log_every == 0:
            opt.zero_grad()
            print(f"step {step:5d}  mse(log q) {running / args.log_every:.5f}")
            running = 0.0

    net.eval()
    with torch.no_grad():
        resid = (net(xva_t).squeeze(1).numpy() - yva)
    score = np.abs(resid)
    print(f"val_rmse_logq={np.sqrt(np.mean(resid[~fva] ** 2)):.4f}")
    print(f"val_auroc={auroc(score, fva):.4f}")


if __name__ == "__main__":
    main()
