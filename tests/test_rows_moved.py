"""Targets cut from other rows than their inputs (pytorch/examples' sine waves with
`target = data[:-3, 1:]` beside `input = data[3:, :-1]`): each target row is another
row's input moved one step along time, and no row is its own -> label_misaligned where
the targets are cut. Cut from the same rows, the targets are the next values and pass;
rows of a shuffled batch keep no offset."""

from __future__ import annotations

import torch
from conftest import planner_report

from torch_investigate.tools.trace.target_order import row_offset

SCRIPT = """import torch
from torch import nn

torch.manual_seed(0)
N, T = 60, 200
phase = torch.rand(N, 1) * 6.28
freq = 0.05 + 0.1 * torch.rand(N, 1)
data = torch.sin(torch.arange(T + 1) * freq + phase)
inputs = data[3:, :-1]
targets = TARGETS
class Next(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(1, 32, batch_first=True)
        self.out = nn.Linear(32, 1)

    def forward(self, x):
        return self.out(self.rnn(x.unsqueeze(-1))[0]).squeeze(-1)


model = Next()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(60):
    loss = nn.functional.mse_loss(model(inputs), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step} loss {loss.item():.5f}")
"""


def _confirmed(tmp_path, targets):
    report = planner_report(tmp_path, SCRIPT.replace("TARGETS", targets))
    return [(f.category, f.line) for f in report.findings if f.status == "confirmed"]


def test_targets_cut_from_other_rows_are_misaligned(tmp_path):
    assert _confirmed(tmp_path, "data[:-3, 1:]") == [("label_misaligned", 10)]


def test_targets_cut_from_the_same_rows_are_the_next_values(tmp_path):
    assert _confirmed(tmp_path, "data[3:, 1:]") == []


def test_the_offset_between_rows_is_read():
    data = torch.randn(10, 30)
    assert row_offset(data[3:, :-1], data[:-3, 1:]) == -3
    assert row_offset(data[:-2, :-1], data[2:, 1:]) == 2


def test_rows_of_their_own_or_shuffled_keep_no_offset():
    data = torch.randn(10, 30)
    x, y = data[:, :-1], data[:, 1:]
    assert row_offset(x, y) is None  # each row's own continuation: no other row's
    perm = torch.randperm(10)
    assert row_offset(x, y[perm.roll(5)]) is None or perm.roll(5).equal(perm)
    assert row_offset(x, torch.randn(10, 29)) is None
