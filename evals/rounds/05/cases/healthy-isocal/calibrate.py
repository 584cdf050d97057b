import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, 10, generator=g)
    logit = 1.2 * X[:, 0] - 0.8 * X[:, 1] + 0.6 * X[:, 2] * X[:, 3]
    y = (torch.rand(n, generator=g) < torch.sigmoid(logit)).float()
    return X, y


class MonotoneCalibrator(nn.Module):
    """f(z) = b + sum_k softplus(w_k) * relu(z - knot_k): non-decreasing in z."""

    def __init__(self, knots):
        super().__init__()
        self.register_buffer("knots", knots)
        self.raw_w = nn.Parameter(torch.full((len(knots),), -2.0))
        self.bias = nn.Parameter(torch.zeros(()))
        self.slope0 = nn.Parameter(torch.zeros(()))

    def forward(self, z):
        hinge = torch.relu(z[:, None] - self.knots[None, :])
        return self.bias + F.softplus(self.slope0) * (z - self.knots[0]) + (hinge * F.softplus(self.raw_w)).sum(-1)


def ece(probs, y, bins=10):
    edges = torch.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (probs > lo) & (probs <= hi)
        if sel.any():
            total += sel.float().mean().item() * abs(probs[sel].mean().item() - y[sel].mean().item())
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base-epochs", type=int, default=60)
    ap.add_argument("--cal-epochs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X_tr, y_tr = make_data(600, args.seed)
    X_cal, y_cal = make_data(2000, args.seed + 1)
    X_te, y_te = make_data(3000, args.seed + 2)

    base = nn.Sequential(nn.Linear(10, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    opt = torch.optim.Adam(base.parameters(), lr=3e-3)
    for epoch in range(args.base_epochs):
        for i in range(0, len(X_tr), 50):
            loss = F.binary_cross_entropy_with_logits(base(X_tr[i:i + 50]).squeeze(-1), y_tr[i:i + 50])
            opt.zero_grad()
            loss.backward()
            opt.step()

    # freeze the base model: the calibrator only ever sees its logits
    base.requires_grad_(False)
    base.eval()
    with torch.no_grad():
        z_cal = base(X_cal).squeeze(-1)
        z_te = base(X_te).squeeze(-1)
    print(f"base test_acc {((z_te > 0).float() == y_te).float().mean().item():.4f}  "
          f"uncalibrated test_ece {ece(torch.sigmoid(z_te), y_te):.4f}")

    knots = torch.quantile(z_cal, torch.linspace(0.05, 0.95, 12))
    cal = MonotoneCalibrator(knots)
    cal_opt = torch.optim.Adam(cal.parameters(), lr=0.05)
    for epoch in range(args.cal_epochs):
        p = torch.sigmoid(cal(z_cal))
        loss = F.binary_cross_entropy(p, y_cal)          # probabilities in, so plain BCE
        cal_opt.zero_grad()
        loss.backward()
        cal_opt.step()
        if (epoch + 1) % 50 == 0:
            print(f"cal epoch {epoch + 1} nll {loss.item():.4f}")

    with torch.no_grad():
        p_te = torch.sigmoid(cal(z_te))
    print(f"calibrated test_acc {((p_te > 0.5).float() == y_te).float().mean().item():.4f}")
    print(f"test_ece={ece(p_te, y_te):.4f}")


if __name__ == "__main__":
    main()
