import argparse

import numpy as np
import torch
import torch.nn as nn


def samples(n, seed):
    g = np.random.default_rng(seed)
    temp = g.uniform(18, 40, n)
    sugar = g.uniform(0.5, 0.8, n)
    gel = g.uniform(0.02, 0.06, n)
    log_visc = 2.0 + 4.0 * (sugar - 0.65) + 30 * (gel - 0.04) - 0.05 * (temp - 28)
    strain = np.linspace(0.05, 0.8, 16)
    force = np.exp(log_visc)[:, None] * strain ** g.uniform(0.7, 0.9, (n, 1)) / 10
    force += g.normal(0, 0.05, force.shape)
    rheo = np.stack([temp, sugar, gel * 10, log_visc + g.normal(0, 0.05, n)], 1)   # lab instrument
    rig = np.concatenate([np.log1p(np.abs(force)), ((temp - 28) / 7)[:, None], sugar[:, None]], 1)
    y = log_visc + g.normal(0, 0.1, n)
    f = lambda a: torch.tensor(a, dtype=torch.float32)
    return f(rheo), f(rig), f(y)


def fit(model, X, y, epochs, lr, extra=None):
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    for _ in range(epochs):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 64):
            b = perm[i:i + 64]
            pred = model(X[b]).squeeze(1)
            loss = nn.functional.mse_loss(pred, y[b])
            if extra is not None:
                loss = loss + extra(pred, b)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return loss.item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--alpha", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    rheo, rig, y = samples(2500, seed=3)
    rheo_v, rig_v, y_v = samples(600, seed=4)
    teacher = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 1))
    print(f"teacher mse={fit(teacher, rheo, y, 10, 3e-3):.4f}")
    teacher.eval()
    teacher.requires_grad_(False)
    with torch.no_grad():
        soft = teacher(rheo).squeeze(1)          # fixed targets for the student

    student = nn.Sequential(nn.Linear(rig.shape[1], 48), nn.Tanh(), nn.Linear(48, 48), nn.Tanh(), nn.Linear(48, 1))
    hint = lambda pred, b: a.alpha * nn.functional.mse_loss(pred, soft[b].detach())
    print(f"student mse={fit(student, rig, y, 25, 3e-3, extra=hint):.4f}")
    with torch.no_grad():
        p = student(rig_v).squeeze(1)
        r2 = 1 - ((p - y_v) ** 2).sum() / ((y_v - y_v.mean()) ** 2).sum()
    print(f"val_r2={r2.item():.4f}")


if __name__ == "__main__":
    main()
