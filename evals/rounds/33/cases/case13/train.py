import argparse
import copy

import numpy as np
import torch
import torch.nn as nn

SR, WIN = 800, 200


def sessions(n_sessions, per_session, seed):
    g = np.random.default_rng(seed)
    X, y, sid = [], [], []
    t = np.arange(WIN) / SR
    for s in range(n_sessions):
        gain = g.uniform(0.2, 5.0)
        for _ in range(per_session):
            noise = np.cumsum(g.normal(0, 0.3, WIN)) * 0.1 + g.normal(0, 0.6, WIN)
            lab = g.random() < 0.5
            if lab:
                f0 = g.uniform(40, 80)
                sig = sum(np.sin(2 * np.pi * k * f0 * t + g.uniform(0, 6)) / k for k in (1, 2, 3))
                noise = noise + 0.5 * sig
            X.append(gain * noise)
            y.append(float(lab))
            sid.append(s)
    return np.array(X, np.float32), np.array(y, np.float32), np.array(sid)


def per_session_scale(X, sid):
    out = np.empty_like(X)
    for s in np.unique(sid):
        m = sid == s
        out[m] = X[m] / (X[m].std() + 1e-6)
    return out


class HumNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, 16, 9, stride=2), nn.ReLU(),
            nn.Conv1d(16, 16, 9, stride=2), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x.unsqueeze(1)).squeeze(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--ema", type=float, default=0.99)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X, y, sid = sessions(20, 120, seed=5)
    Xv, yv, sidv = sessions(6, 120, seed=6)
    X = torch.from_numpy(per_session_scale(X, sid))
    Xv = torch.from_numpy(per_session_scale(Xv, sidv))
    y, yv = torch.from_numpy(y), torch.from_numpy(yv)
    model = HumNet()
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    lossf = nn.BCEWithLogitsLoss()
    history = []
    for ep in range(a.epochs):
        perm = torch.randperm(len(y))
        for i in range(0, len(y), 64):
            b = perm[i:i + 64]
            loss = lossf(model(X[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                for pe, pm in zip(ema.parameters(), model.parameters()):
                    pe.mul_(a.ema).add_(pm.detach(), alpha=1 - a.ema)
            history.append(loss.item())
        with torch.no_grad():
            acc = ((ema(Xv) > 0).float() == yv).float().mean().item()
        print(f"epoch {ep} loss={np.mean(history[-20:]):.4f} ema_val_acc={acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
