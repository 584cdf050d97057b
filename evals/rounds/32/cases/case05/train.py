import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    omega = rng.uniform(8, 14, (n, 4))        # rad/s over four turns
    radius = rng.uniform(1.6, 2.1, (n, 4))
    mass = rng.uniform(70, 120, (n, 1))
    force = 7.26 * omega[:, -1] ** 2 * radius[:, -1] / 1000 + 0.3 * (omega[:, -1] - omega[:, -2]) + rng.normal(0, 0.05, n)
    x = np.concatenate([omega, radius, mass / 100], 1)
    x = (x - x.mean(0)) / x.std(0)
    return torch.tensor(x, dtype=torch.float32), torch.tensor(force, dtype=torch.float32)


class ForceNet(nn.Module):
    def __init__(self, hidden=128, p=0.3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(9, hidden), nn.ReLU(), nn.Dropout(p),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Evaluator:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __call__(self, model):
        model.eval
        with torch.no_grad():
            return (model(self.x) - self.y).abs().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    x, y = simulate(3000, args.seed)
    evaluator = Evaluator(x[2400:], y[2400:])
    model = ForceNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(2400)
        for b in range(0, 2400, 64):
            idx = perm[b:b + 64]
            loss = F.mse_loss(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} loss {loss.item():.4f} val_mae {evaluator(model):.4f}")
    print(f"val_mae_kn={evaluator(model):.4f}")


if __name__ == "__main__":
    main()
