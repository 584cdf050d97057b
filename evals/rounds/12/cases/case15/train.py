#!/usr/bin/env python
"""Heart-rate regression from PPG windows: fixed FIR band-pass front end + 1-D CNN."""
import argparse
import time

import numpy as np
import torch
from torch import nn

from ppg import bandpass_taps, make_windows


class BandPass(nn.Module):
    """FIR band-pass as a conv layer. The taps are a signal-processing design,
    not something to learn."""

    def __init__(self, taps):
        super().__init__()
        self.conv = nn.Conv1d(1, 1, len(taps), padding=len(taps) // 2, bias=False)
        with torch.no_grad():
            self.conv.weight.copy_(torch.from_numpy(taps).view(1, 1, -1))
        self.conv.weight.requires_grad_(False)

    def forward(self, x):
        y = self.conv(x)
        return (y - y.mean(-1, keepdim=True)) / (y.std(-1, keepdim=True) + 1e-6)


class HRNet(nn.Module):
    def __init__(self, taps, ch=24):
        super().__init__()
        self.front = BandPass(taps)
        self.body = nn.Sequential(
            nn.Conv1d(1, ch, 9, padding=4), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(ch, ch, 9, padding=4, dilation=1), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(ch, 2 * ch, 9, padding=8, dilation=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(2 * ch, 1))

    def forward(self, x):
        return self.body(self.front(x.unsqueeze(1))).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--clip", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()

    Xtr, ytr = make_windows(3000, seed=args.seed)
    Xva, yva = make_windows(600, seed=args.seed + 7)
    hr_mu, hr_sd = ytr.mean(), ytr.std()
    Xtr, Xva = torch.from_numpy(Xtr), torch.from_numpy(Xva)
    ztr = torch.from_numpy((ytr - hr_mu) / hr_sd)
    yva = torch.from_numpy(yva)

    model = HRNet(bandpass_taps())
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=args.lr)
    for ep in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        losses, norms = [], []
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = nn.functional.mse_loss(model(Xtr[idx]), ztr[idx])
            opt.zero_grad()
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(params, args.clip).item())
            opt.step()
            losses.append(loss.item())
        model.eval()
        with torch.no_grad():
            bpm = model(Xva) * hr_sd + hr_mu
        mae = (bpm - yva).abs().mean().item()
        print(f"epoch {ep + 1:2d} mse={np.mean(losses):.4f} grad_norm_max={max(norms):.2f} val_mae_bpm={mae:.2f}")
    print(f"elapsed {time.time() - t0:.1f}s")
    print(f"METRIC val_mae_bpm={mae:.3f}")


if __name__ == "__main__":
    main()
