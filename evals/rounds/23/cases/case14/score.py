import argparse

import numpy as np
import torch
import torch.nn as nn


def windows(n, anomaly_rate, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(512) / 512
    X, y = [], []
    for _ in range(n):
        f0 = rng.uniform(20, 24)
        sig = np.sin(2 * np.pi * f0 * t * 8) + 0.5 * np.sin(2 * np.pi * 2 * f0 * t * 8) + rng.normal(0, 0.3, 512)
        lab = int(rng.random() < anomaly_rate)
        if lab:  # gate chatter: an impulsive train in the second half
            sig += (rng.random(512) < 0.02) * (t > 0.5) * rng.uniform(3, 5)
        X.append(sig); y.append(lab)
    return torch.tensor(np.array(X), dtype=torch.float32).unsqueeze(1), np.array(y)


class Filterbank(nn.Module):
    """Fixed FIR band-pass bank + envelope; the coefficients are a site standard."""

    def __init__(self, n_bands=8, taps=31):
        super().__init__()
        k = torch.arange(taps) - taps // 2
        freqs = torch.linspace(0.05, 0.45, n_bands)
        win = torch.hann_window(taps, periodic=False)
        w = torch.stack([torch.cos(2 * np.pi * f * k) * win for f in freqs]).unsqueeze(1)
        self.conv = nn.Conv1d(1, n_bands, taps, padding=taps // 2, bias=False)
        self.conv.weight.data.copy_(w)
        self.conv.requires_grad_(False)

    def forward(self, x):
        return nn.functional.avg_pool1d(self.conv(x).abs(), 16)  # (B, bands, 32)


class Predictor(nn.Module):
    def __init__(self, bands=8):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(bands * 24, 128), nn.ReLU(), nn.Linear(128, bands * 8))

    def forward(self, env):
        return self.net(env[..., :24]).view(env.size(0), -1, 8)


def auroc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores)); ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--accum", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    fb = Filterbank()
    Xtr, _ = windows(2000, 0.0, seed=1)
    Xva, yva = windows(600, 0.15, seed=2)
    with torch.no_grad():
        Etr, Eva = fb(Xtr), fb(Xva)
    mu, sd = Etr.mean(), Etr.std()
    Etr, Eva = (Etr - mu) / sd, (Eva - mu) / sd

    model = Predictor()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Etr))
        for step, i in enumerate(range(0, len(perm), 32)):
            e = Etr[perm[i:i + 32]]
            loss = nn.functional.mse_loss(model(e), e[..., 24:]) / args.accum
            loss.backward()
            if (step + 1) % args.accum == 0:
                nn.utils.clip_grad_norm_(model.parameters(), max_norm=1e3)
                opt.step()
                opt.zero_grad()
        model.eval()
        with torch.no_grad():
            err = ((model(Eva) - Eva[..., 24:]) ** 2).mean(dim=(1, 2)).detach().numpy()
        score = auroc(err, yva)
        print(f"epoch {epoch + 1:2d} mse={loss.item() * args.accum:.4f} val_auroc={score:.3f}")
    print(f"METRIC val_auroc={score:.4f}")


if __name__ == "__main__":
    main()
