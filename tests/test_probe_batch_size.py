"""The per-sample independence probe forwards the first half of a batch alone. A softmax
over an axis that merged the batch with another one (`[T, B*N]`) is unchanged by
reordering the samples and barely moved by changing one of them, but a batch of another
size changes every output (round 12's traffic forecaster). Per-sample forwards, and a
softmax shifted by the whole batch's maximum (the same values, written for stability),
keep their outputs."""

from __future__ import annotations

import torch
from torch import nn

from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.trace.probes import forward_probes
from torch_investigate.tools.trace.recorder import Recorder


class Readout(nn.Module):
    """Attention over time for each of N sensors; `merged` normalizes over time x (B*N)."""

    def __init__(self, merged: bool, shift: bool = False) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.score = nn.Linear(1, 1)
        self.head = nn.Linear(1, 1)
        self.merged, self.shift = merged, shift

    def forward(self, x):  # x: [B, T, N]
        b, t, n = x.shape
        s = self.score(x.permute(1, 0, 2).reshape(t, b * n, 1)).squeeze(-1)  # [T, B*N]
        if self.merged:
            w = torch.softmax(s, dim=-1)
        else:
            s = s - s.max() if self.shift else s  # the whole batch's maximum: same softmax
            w = torch.softmax(s.reshape(t, b, n), dim=0).reshape(t, b * n)
        ctx = (w * x.permute(1, 0, 2).reshape(t, b * n)).sum(0)
        return self.head(ctx.unsqueeze(-1)).reshape(b, n)


def _probe(model: nn.Module) -> dict:
    x = torch.randn(32, 12, 5)
    return forward_probes(Recorder(Config()), model, (x,), {})


def test_a_softmax_over_the_merged_batch_depends_on_the_batch_size():
    v = _probe(Readout(merged=True))
    assert v["status"] == "ok" and v["sample_axis"] == 0
    assert v["cross_sample_relative"] < 1e-4  # reordering and changing one sample hold
    assert v["split_relative"] >= 1e-4 and v["independent"] is False


def test_per_sample_forwards_keep_their_outputs_in_a_smaller_batch():
    for model in (Readout(merged=False), Readout(merged=False, shift=True)):
        v = _probe(model)
        assert v["status"] == "ok" and v["independent"] is True
        assert v["split_relative"] < 1e-4
