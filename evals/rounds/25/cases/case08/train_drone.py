import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def shuffle_together(x, y, rng):
    order = rng.permutation(len(y))
    return x[order], y[order]


def log_spectrum(x):
    # x: [B, N] pressure; magnitude spectrum up to 400 Hz (bins of 2 Hz)
    spec = torch.fft.rfft(x * torch.hann_window(x.shape[-1]), dim=-1).abs()
    return torch.log1p(spec[:, 1:201])


class DroneNet(nn.Module):
    def __init__(self, n_keys):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 16, 9, padding=4), nn.ReLU(),
                                  nn.Conv1d(16, 16, 9, padding=4), nn.ReLU(), nn.AdaptiveMaxPool1d(25))
        self.fc = nn.Linear(16 * 25, n_keys)

    def forward(self, pressure):
        s = log_spectrum(pressure)
        s = (s - s.mean(1, keepdim=True)) / (s.std(1, keepdim=True) + 1e-5)
        return self.fc(self.conv(s.unsqueeze(1)).flatten(1))

    def predict_proba(self, pressure):
        return F.softmax(self(pressure), dim=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--micro-batch", type=int, default=16)
    ap.add_argument("--accum", type=int, default=4)
    ap.add_argument("--clip", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    d = np.load("traces.npz")
    x, y = d["x"].astype(np.float32), d["y"]
    n_val = 300
    xva, yva = torch.from_numpy(x[:n_val]), torch.from_numpy(y[:n_val])
    xtr_np, ytr_np = x[n_val:], y[n_val:]

    model = DroneNet(len(d["keys"]))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    running = None
    for epoch in range(args.epochs):
        model.train()
        xtr_np, ytr_np = shuffle_together(xtr_np, ytr_np, rng)
        xtr, ytr = torch.from_numpy(xtr_np), torch.from_numpy(ytr_np)
        n_micro = len(ytr) // args.micro_batch
        for m in range(n_micro):
            sl = slice(m * args.micro_batch, (m + 1) * args.micro_batch)
            loss = F.cross_entropy(model(xtr[sl]), ytr[sl]) / args.accum
            loss.backward()
            if (m + 1) % args.accum == 0:
                norm = nn.utils.clip_grad_norm_(model.parameters(), args.clip)
                opt.step()
                opt.zero_grad()
            running = loss.detach() * args.accum if running is None else 0.95 * running + 0.05 * loss.detach() * args.accum
        model.eval()
        with torch.no_grad():
            proba = model.predict_proba(xva)
        acc = (proba.argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch + 1:2d} loss~{running.item():.4f} grad_norm {norm.item():.3f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
