#!/usr/bin/env python
"""Tai-chi form classifier from joint-angle traces.

Data: simulated. Each form is a coordinated pattern of slow joint oscillations
(frequency ratios and phase lags between joints); practitioners differ in tempo
and amplitude, and each recording carries per-joint calibration offsets.
"""
import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

JOINTS = ["l_shoulder", "r_shoulder", "l_elbow", "r_elbow", "l_hip", "r_hip", "l_knee", "r_knee"]
N_FORMS = 6
T = 60          # 3 s at 20 Hz


def form_templates(rng):
    """(freq multiplier, phase, amplitude) per form and joint."""
    freq = rng.choice([1.0, 2.0], size=(N_FORMS, len(JOINTS)))
    phase = rng.uniform(0, 2 * math.pi, size=(N_FORMS, len(JOINTS)))
    amp = rng.uniform(0.15, 0.5, size=(N_FORMS, len(JOINTS)))
    return freq, phase, amp


def simulate(n, templates, rng, offset_sd=0.6):
    freq, phase, amp = templates
    y = rng.integers(0, N_FORMS, n)
    t = np.arange(T) / 20.0
    x = np.empty((n, T, len(JOINTS)), dtype=np.float32)
    for i in range(n):
        tempo = rng.uniform(0.25, 0.4)                  # cycles per second
        k = y[i]
        start = rng.uniform(0, 2 * math.pi)
        w = 2 * math.pi * tempo * freq[k][None, :] * t[:, None] + phase[k][None, :] + start * freq[k][None, :]
        sig = amp[k][None, :] * rng.uniform(0.7, 1.3) * np.sin(w)
        offset = rng.normal(0, offset_sd, len(JOINTS))  # calibration of this suit-up
        x[i] = sig + offset[None, :] + rng.normal(0, 0.05, (T, len(JOINTS)))
    return x, y


class FormNet(nn.Module):
    def __init__(self, n_joints, hidden=64):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_joints, hidden, 5, padding=2), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 5, padding=2, stride=2), nn.ReLU(),
        )
        self.fc = nn.Linear(hidden * (T // 2), N_FORMS)

    def forward(self, angles):
        # angles: [batch, time, joint]. Remove the per-recording calibration
        # offset by centring every joint trace.
        angles = angles - angles.mean(dim=0, keepdim=True)
        h = self.conv(angles.transpose(1, 2))
        return self.fc(h.flatten(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--n-train", type=int, default=1500)
    ap.add_argument("--n-val", type=int, default=500)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    t0 = time.time()
    torch.manual_seed(args.seed)
    data_rng = np.random.default_rng(2024)
    templates = form_templates(data_rng)
    xtr, ytr = simulate(args.n_train, templates, data_rng)
    xva, yva = simulate(args.n_val, templates, data_rng)
    xtr, ytr = torch.from_numpy(xtr), torch.from_numpy(ytr)
    xva, yva = torch.from_numpy(xva), torch.from_numpy(yva)

    model = FormNet(len(JOINTS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        model.train()
        perm = torch.randperm(len(xtr))
        losses = []
        for b in perm.split(args.batch):
            logits = model(xtr[b])
            loss = F.cross_entropy(logits, ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        if epoch % 5 == 0:
            model.eval()
            with torch.no_grad():
                acc = (model(xva).argmax(-1) == yva).float().mean().item()
            print(f"[{epoch:02d}] loss={np.mean(losses):.4f} val_acc={acc:.3f}")

    model.eval()
    with torch.no_grad():
        acc = (model(xva).argmax(-1) == yva).float().mean().item()
    print(f"done in {time.time() - t0:.1f}s")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
