import argparse
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_RAW = 8


def factory_calibration(seed=123):
    """Misalignment/gain matrix of the IMU, as shipped by the vendor."""
    rng = np.random.default_rng(seed)
    return np.eye(N_RAW) + 0.15 * rng.normal(size=(N_RAW, N_RAW))


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    heading_err = rng.uniform(-math.pi, math.pi, n)
    current_dir = rng.uniform(-math.pi, math.pi, n)
    current_spd = rng.gamma(2.0, 0.3, n)
    yaw_rate = rng.normal(0, 0.4, n)
    paddle_l, paddle_r = rng.gamma(3, 20, n), rng.gamma(3, 20, n)
    stowed = rng.random(n) < 0.15
    angle = (0.6 * heading_err - 0.8 * yaw_rate + 0.004 * (paddle_l - paddle_r)
             + 0.5 * current_spd * np.sin(current_dir - heading_err))
    angle = np.where(stowed, math.pi + 0.2 * rng.normal(size=n), angle)
    angle = np.angle(np.exp(1j * angle))                     # wrap to (-pi, pi]
    clean = np.stack([np.sin(heading_err), np.cos(heading_err), yaw_rate, current_spd * np.sin(current_dir),
                      current_spd * np.cos(current_dir), (paddle_l - paddle_r) / 50, (paddle_l + paddle_r) / 100,
                      stowed.astype(float)], 1)
    raw = clean @ np.linalg.inv(factory_calibration()).T + rng.normal(0, 0.02, (n, N_RAW))
    return raw.astype(np.float32), angle.astype(np.float32)


class RudderNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.calib = nn.Linear(N_RAW, N_RAW, bias=False)
        with torch.no_grad():
            self.calib.weight.copy_(torch.tensor(factory_calibration(), dtype=torch.float32))
        self.calib.requires_grad_(False)   # vendor calibration, not learned
        self.mlp = nn.Sequential(nn.Linear(N_RAW, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, raw):
        v = self.mlp(self.calib(raw))
        return F.normalize(v, dim=-1)      # (sin, cos) on the unit circle


def angular_mae_deg(pred_sc, angle):
    pred = torch.atan2(pred_sc[:, 0], pred_sc[:, 1])
    diff = torch.remainder(pred - angle + math.pi, 2 * math.pi) - math.pi
    return diff.abs().mean().item() * 180 / math.pi


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, atr = map(torch.from_numpy, simulate(6000, args.seed))
    xva, ava = map(torch.from_numpy, simulate(1500, args.seed + 1))
    ttr = torch.stack([torch.sin(atr), torch.cos(atr)], 1)

    model = RudderNet()
    ema = copy.deepcopy(model)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), 128):
            b = perm[i:i + 128]
            loss = F.mse_loss(model(xtr[b]), ttr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema_update(ema, model, args.ema)
        ema.eval()
        with torch.no_grad():
            mae = angular_mae_deg(ema(xva), ava)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} ema val_mae_deg={mae:.2f}")
    print(f"val_mae_deg={mae:.3f}")


if __name__ == "__main__":
    main()
