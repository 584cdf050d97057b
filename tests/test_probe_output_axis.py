"""A time-first decoder returns `[T, B, C]`; when its length equals the batch size (the
graykode seq2seq tutorial: six word pairs, five letters plus an end mark) the output's
first axis has the batch's size but holds time. The independence probe reads the
samples on the output axis along which reordering the inputs holds, so the healthy
model is not read as mixing its samples; one that does mix them still is."""

from __future__ import annotations

import torch
from torch import nn

from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.trace.probes import forward_probes
from torch_investigate.tools.trace.recorder import Recorder


class Decoder(nn.Module):
    def __init__(self, mix: bool = False) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.rnn = nn.RNN(7, 16)
        self.fc = nn.Linear(16, 7)
        self.mix = mix

    def forward(self, x):  # x: [B, T, C], batch first as the loader gives it
        out, _ = self.rnn(x.transpose(0, 1))  # [T, B, H]
        if self.mix:  # the batch's mean leaks into every sample
            out = out + out.mean(dim=1, keepdim=True)
        return self.fc(out)  # [T, B, C]


def _probe(model: nn.Module, batch: int, length: int) -> dict:
    torch.manual_seed(1)
    return forward_probes(Recorder(Config()), model, (torch.randn(batch, length, 7),), {})


def test_a_time_first_output_as_long_as_the_batch_is_read_on_its_sample_axis():
    v = _probe(Decoder(), batch=6, length=6)
    assert v["status"] == "ok" and v["independent"] is True
    assert v["output_axis_alternative"] == 1


def test_a_time_first_output_that_mixes_its_samples_is_still_found():
    v = _probe(Decoder(mix=True), batch=6, length=6)
    assert v["status"] == "ok" and v["independent"] is False


def test_an_output_of_other_length_needs_no_second_reading():
    v = _probe(Decoder(), batch=6, length=5)
    assert v["independent"] is True and "output_axis_alternative" not in v


def test_a_single_sequence_is_a_batch_of_one_not_a_batch_of_its_steps():
    """graykode's and hunkim's tutorials feed one sequence `[1, T, C]` to an RNN: its time
    steps are no samples to reorder (they were read as samples that influence each other)."""
    v = _probe(Decoder(), batch=1, length=6)
    assert v["status"] == "not_applicable" and "one sample" in v["reason"]


class Swapped(nn.Module):
    """A tied autoencoder whose input is reshaped `[B, D] -> [D, B]` and transposed back
    (the dev suite's reshape_scramble seed): with B == D, rolling a feature column rolls
    the output's rows, which is no sample axis."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.enc = nn.Linear(16, 8)

    def forward(self, x):
        x = x.reshape(x.shape[1], x.shape[0]).transpose(0, 1)
        return torch.sigmoid(self.enc(x) @ self.enc.weight)


def test_a_feature_axis_that_reappears_as_the_output_rows_is_no_sample_axis():
    torch.manual_seed(1)
    v = forward_probes(Recorder(Config()), Swapped(), (torch.randn(16, 16),), {})
    assert v["status"] == "ok" and v["independent"] is False


class PythonRandomDepth(nn.Module):
    """jcjohnson's dynamic net: each forward reuses its middle layer a number of times
    drawn from Python's `random`; every sample goes through the same depth."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.inp, self.mid, self.out = nn.Linear(6, 8), nn.Linear(8, 8), nn.Linear(8, 2)

    def forward(self, x):
        import random

        h = self.inp(x).clamp(min=0)
        for _ in range(random.randint(0, 3)):
            h = self.mid(h).clamp(min=0)
        return self.out(h)


def test_a_depth_drawn_from_python_random_is_no_mixing_of_samples():
    import random

    random.seed(5)
    state = random.getstate()
    torch.manual_seed(1)
    v = forward_probes(Recorder(Config()), PythonRandomDepth(), (torch.randn(64, 6),), {})
    assert v["status"] == "ok" and v["independent"] is True
    assert random.getstate() == state  # the program's own stream is left as it was
