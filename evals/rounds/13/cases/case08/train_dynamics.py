import argparse
import os

import numpy as np
import torch
import torch.nn as nn

from utils import set_seed, wrap_to_pi


def encode_state(state, torque):
    q, dq = state[..., :2], state[..., 2:]
    return torch.cat([torch.sin(q), torch.cos(q), dq / 5.0, torque / 10.0], -1)


class DynamicsNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, hidden), nn.SiLU(),
                                   nn.Linear(hidden, hidden), nn.SiLU())
        self.dq_head = nn.Linear(hidden, 2)      # next velocity
        self.dtheta_head = nn.Linear(hidden, 2)  # angle increment over one step

    def forward(self, state, torque):
        h = self.trunk(encode_state(state, torque))
        q_next = state[..., :2] + 0.1 * self.dtheta_head(h)
        dq_next = state[..., 2:] + self.dq_head(h)
        return q_next, dq_next


def losses(model, state, torque, target):
    q_pred, dq_pred = model(state, torque)
    angle_err = wrap_to_pi(q_pred - target[..., :2])
    angle_loss = (angle_err ** 2).mean() * 100.0
    vel_loss = ((dq_pred - target[..., 2:]) ** 2).mean()
    return angle_loss, vel_loss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="data/trajectories.npz")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    set_seed(args.seed)

    if not os.path.exists(args.data):
        import subprocess, sys
        subprocess.run([sys.executable, "simulate.py", "--out", args.data], check=True)
    d = np.load(args.data)
    s, t, n = (torch.from_numpy(d[k]) for k in ("states", "torques", "next_states"))
    n_val = len(s) // 5                         # hold out whole trajectories
    tr = [a[n_val:].reshape(-1, a.shape[-1]) for a in (s, t, n)]
    va = [a[:n_val].reshape(-1, a.shape[-1]) for a in (s, t, n)]
    print(f"train transitions {len(tr[0])}, val transitions {len(va[0])}")

    model = DynamicsNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(tr[0]))
        la = lv = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            angle_loss, vel_loss = losses(model, tr[0][idx], tr[1][idx], tr[2][idx])
            loss = angle_loss + vel_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            la += angle_loss.item()
            lv += vel_loss.item()
        nb = (len(perm) + args.batch_size - 1) // args.batch_size
        print(f"epoch {epoch + 1:2d} angle {la / nb:.4f} vel {lv / nb:.4f}")

    with torch.no_grad():
        q_pred, dq_pred = model(va[0], va[1])
        ang = wrap_to_pi(q_pred - va[2][:, :2]).abs().mean().item()
        vel = (dq_pred - va[2][:, 2:]).abs().mean().item()
    print(f"val_vel_mae={vel:.4f}")
    print(f"val_angle_mae_deg={np.degrees(ang):.3f}")


if __name__ == "__main__":
    main()
