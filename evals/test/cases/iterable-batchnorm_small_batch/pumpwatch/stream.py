import math

import torch
from torch.utils.data import IterableDataset

STATES = ["normal", "cavitation", "dry_run", "blockage"]


class PumpTelemetry(IterableDataset):
    """Yields (snippet, state) pairs one at a time, like the live feed does."""

    def __init__(self, n_snippets, snippet_len=96, seed=0):
        super().__init__()
        self.n_snippets = n_snippets
        self.snippet_len = snippet_len
        self.seed = seed
        self.epoch = 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def _snippet(self, state, g):
        t = torch.arange(self.snippet_len) / 48.0
        phase = 2 * math.pi * torch.rand(1, generator=g)
        rpm_hz = 4.0 * (1 + 0.05 * torch.randn(1, generator=g))
        pressure = 1.0 + 0.2 * torch.sin(2 * math.pi * rpm_hz * t + phase)
        if state == "cavitation":
            pressure = pressure + 0.3 * torch.sin(2 * math.pi * 17.0 * t + 2 * phase)
        elif state == "dry_run":
            pressure = 0.35 + 0.06 * torch.sin(2 * math.pi * rpm_hz * t + phase)
        elif state == "blockage":
            pressure = 1.7 + 0.45 * torch.sin(2 * math.pi * rpm_hz * t + phase)
        pressure = pressure + 0.05 * torch.randn(self.snippet_len, generator=g)
        flow = pressure.roll(3) * (0.8 + 0.05 * torch.randn(1, generator=g))
        return torch.stack([pressure, flow])

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed + 1000 * self.epoch)
        for _ in range(self.n_snippets):
            label = int(torch.randint(len(STATES), (1,), generator=g))
            yield self._snippet(STATES[label], g), label
