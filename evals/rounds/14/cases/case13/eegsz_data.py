import math

import torch
from torch.utils.data import Dataset

FS = 128
N_CH = 8
WIN = 2 * FS


def _pink(n, g):
    spec = torch.complex(torch.randn(n // 2 + 1, generator=g), torch.randn(n // 2 + 1, generator=g))
    f = torch.arange(n // 2 + 1).clamp(min=1).float()
    return torch.fft.irfft(spec / f.sqrt(), n=n)


def simulate_cohort(n_patients, per_patient, seizure_fraction, seed):
    """Returns x [N, C, T], y [N], patient id [N] (ints)."""
    g = torch.Generator().manual_seed(seed)
    xs, ys, pids = [], [], []
    t = torch.arange(WIN) / FS
    for p in range(n_patients):
        gain = 10 ** (torch.rand(1, generator=g).item() * 2.0 - 1.0)   # 0.1x .. 10x
        offset = torch.randn(N_CH, 1, generator=g) * 0.5 * gain
        alpha_f = 9.0 + 2.0 * torch.rand(1, generator=g).item()
        focus = torch.randperm(N_CH, generator=g)[:3]
        for _ in range(per_patient):
            bg = torch.stack([_pink(WIN, g) for _ in range(N_CH)])
            bg = bg / bg.std(dim=1, keepdim=True)
            ph = torch.rand(1, generator=g).item() * 6.28
            bg = bg + 0.6 * torch.sin(2 * math.pi * alpha_f * t + ph)
            sz = torch.rand(1, generator=g).item() < seizure_fraction
            if sz:
                f = 3.0 + torch.rand(1, generator=g).item()
                ph = torch.rand(1, generator=g).item() * 6.28
                spike = torch.sin(2 * math.pi * f * t + ph)
                wave = 0.8 * torch.sign(spike) * spike.abs() ** 3 + 0.4 * spike
                amp = torch.zeros(N_CH, 1)
                amp[focus] = 0.15 + 0.15 * torch.rand(3, 1, generator=g)
                bg = bg * 0.8 + amp * wave
            xs.append(bg * gain + offset)
            ys.append(int(sz))
            pids.append(p)
    return torch.stack(xs), torch.tensor(ys), torch.tensor(pids)


class PatientScaler:
    """Per-patient, per-channel z-scoring. Falls back to pooled statistics for
    patients it has not seen (new patients at deployment time)."""

    def fit(self, x, pids):
        self.stats = {}
        for p in pids.unique().tolist():
            xp = x[pids == p]
            self.stats[p] = (xp.mean(dim=(0, 2)).view(-1, 1), xp.std(dim=(0, 2)).view(-1, 1))
        self.pooled = (x.mean(dim=(0, 2)).view(-1, 1), x.std(dim=(0, 2)).view(-1, 1))
        return self

    def transform(self, window, pid):
        mu, sd = self.stats.get(pid, self.pooled)
        return (window - mu) / sd


class WindowDataset(Dataset):
    def __init__(self, x, y, pids, scaler):
        self.x, self.y, self.pids, self.scaler = x, y, pids, scaler

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.scaler.transform(self.x[i], self.pids[i]), self.y[i].float()
