import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from board import random_positions


class Trunk(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(2, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
        )
        self.threat = nn.Conv2d(ch, 1, 1)

    def forward(self, x):
        h = self.net(x)
        return h, self.threat(h).squeeze(1)


class ValueNet(nn.Module):
    """Separate critic-style network on the raw board."""

    def __init__(self, ch=24):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(2, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
        )
        self.fc = nn.Sequential(nn.Linear(ch, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, board):
        h = self.conv(board).sum((2, 3)) / 10.0
        return torch.tanh(self.fc(h)).squeeze(1)


def f1(logits, target):
    pred = logits > 0
    tp = (pred & (target > 0.5)).sum().item()
    return 2 * tp / max(pred.sum().item() + (target > 0.5).sum().item(), 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X, T, V = map(torch.from_numpy, random_positions(2000, seed=a.seed))
    Xv, Tv, Vv = map(torch.from_numpy, random_positions(400, seed=77))

    trunk, value = Trunk(), ValueNet()
    opt_policy = torch.optim.Adam(trunk.parameters(), lr=2e-3)
    opt_value = torch.optim.SGD(value.parameters(), lr=0.05, momentum=0.9)
    pos_w = torch.tensor(8.0)  # threats are rare cells

    for step in range(a.steps):
        j = torch.randint(0, len(X), (a.bs,))
        h, threat_logits = trunk(X[j])
        loss_t = F.binary_cross_entropy_with_logits(threat_logits, T[j], pos_weight=pos_w)
        opt_policy.zero_grad()
        loss_t.backward()
        opt_policy.step()

        v = value(X[j])
        loss_v = F.mse_loss(v, V[j])
        opt_policy.zero_grad()
        loss_v.backward()
        opt_value.step()

        if (step + 1) % 150 == 0:
            print(f"step {step + 1}: threat_bce={loss_t.item():.3f} value_mse={loss_v.item():.4f}")

    with torch.no_grad():
        h, tl = trunk(Xv)
        mse = F.mse_loss(value(Xv), Vv).item()
        print(f"val_threat_f1={f1(tl, Tv):.4f}")
    print(f"val_value_mse={mse:.4f}")


if __name__ == "__main__":
    main()
