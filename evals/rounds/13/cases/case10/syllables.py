import argparse
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

KINDS = ["upsweep", "downsweep", "whistle", "trill", "clicks", "two_note"]
FS, DUR, NFFT, HOP = 8000, 0.25, 128, 48


def chirp(kind, rng):
    t = np.arange(int(FS * DUR)) / FS
    f0 = rng.uniform(1200, 2600)
    env = np.clip(np.sin(np.pi * np.clip((t - 0.02) / (DUR - 0.04), 0, 1)), 0, None)
    if kind == 0:
        f = f0 + rng.uniform(6000, 9000) * t
    elif kind == 1:
        f = f0 + 1500 - rng.uniform(6000, 9000) * t
    elif kind == 2:
        f = np.full_like(t, f0)
    elif kind == 3:
        f = f0 + 300 * np.sin(2 * np.pi * rng.uniform(35, 50) * t)
    elif kind == 4:
        f = np.full_like(t, f0)
        env = env * (np.sin(2 * np.pi * rng.uniform(25, 35) * t) > 0.85)
    else:
        f = np.where(t < DUR / 2, f0, f0 + rng.uniform(700, 1200))
    phase = 2 * np.pi * np.cumsum(f) / FS
    x = env * np.sin(phase) + rng.normal(0, rng.uniform(0.1, 0.4), t.shape)
    return x


def spectrogram(x):
    win = np.hanning(NFFT)
    frames = np.stack([x[i:i + NFFT] * win for i in range(0, len(x) - NFFT, HOP)])
    mag = np.abs(np.fft.rfft(frames, axis=1))[:, 4:52]          # ~250-3200 Hz
    return np.log1p(mag).T.astype(np.float32)                   # [freq, time]


def make_set(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(KINDS), n)
    s = np.stack([spectrogram(chirp(k, rng)) for k in y])
    return torch.from_numpy(s)[:, None], torch.from_numpy(y)


class SyllableCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveMaxPool2d((4, 4)),
            nn.Flatten(), nn.Dropout(0.3), nn.Linear(512, len(KINDS)),
        )

    def forward(self, x):
        # log-probabilities; paired with NLLLoss below
        return F.log_softmax(self.body(x), dim=1)


@torch.no_grad()
def ema_update(ema, model, decay):
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(decay).add_(pm.detach(), alpha=1 - decay)


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    hits = sum((model(x).argmax(1) == y).sum().item() for x, y in loader)
    return hits / len(loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--ema-decay", type=float, default=0.98)
    ap.add_argument("--max-grad-norm", type=float, default=25.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = make_set(1500, seed=10)
    xva, yva = make_set(500, seed=11)
    mean, std = xtr.mean(), xtr.std()
    train_dl = DataLoader(TensorDataset((xtr - mean) / std, ytr), batch_size=64, shuffle=True)
    val_dl = DataLoader(TensorDataset((xva - mean) / std, yva), batch_size=256)

    model = SyllableCNN()
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.NLLLoss()

    for epoch in range(args.epochs):
        model.train()
        losses, norms = [], []
        for x, y in train_dl:
            loss = criterion(model(x), y)
            opt.zero_grad()
            loss.backward()
            # guard against the occasional spike; rarely active
            norm = nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            opt.step()
            ema_update(ema, model, args.ema_decay)
            losses.append(loss.item())
            norms.append(float(norm))
        print(f"epoch {epoch + 1:2d} loss {np.mean(losses):.4f} grad_norm max {max(norms):.2f} "
              f"val_acc raw {accuracy(model, val_dl):.3f} ema {accuracy(ema, val_dl):.3f}")

    print(f"val_acc={accuracy(ema, val_dl):.4f}")


if __name__ == "__main__":
    main()
