"""Initialization judged by what training did with it: a weight that starts with identical
rows is a defect only when its rows are still identical at the end of the run (its units
never came to differ); rows that training separated (an embedding table, a per-feature
table, a zero-initialized layer whose rows see different inputs) were never stuck. A
frozen weight set from the data is no initialization at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import planner_report

HEAD = """
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(512, 8)
w = torch.randn(8, 1)
y = (x @ w).squeeze(1) + 0.1 * torch.randn(512)
"""

LOOP = """
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
for step in range(120):
    i = torch.randint(0, 512, (64,))
    loss = nn.functional.mse_loss(model(x[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""

CONSTANT = (
    HEAD
    + """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.fc2 = nn.Linear(32, 1)
        for p in self.parameters():
            nn.init.constant_(p, 0.1)   # every hidden unit the same

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x))).squeeze(1)

model = Net()
"""
    + LOOP
)

PER_FEATURE = (
    HEAD
    + """
class Additive(nn.Module):
    # one small network per input feature, their outputs summed
    def __init__(self, f=8, h=16):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(f, h) * 0.5)
        self.b1 = nn.Parameter(torch.zeros(f, h))
        self.w2 = nn.Parameter(torch.randn(f, h) * 0.1)

    def forward(self, x):
        hidden = torch.relu(x.unsqueeze(2) * self.w1 + self.b1)
        return (hidden * self.w2).sum(dim=(1, 2))

model = Additive()
"""
    + LOOP
)

FROZEN_SCALE = (
    HEAD
    + """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Linear(8, 8)
        self.scale.requires_grad_(False)    # fixed from the data below
        self.fc1 = nn.Linear(8, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(self.scale(x)))).squeeze(1)

model = Net()
with torch.no_grad():
    model.scale.weight.copy_(torch.diag(30.0 / (x.std(0) * 30.0)) * 30.0)
    model.scale.bias.zero_()
x = x / 30.0
"""
    + LOOP
)


def _categories(report) -> list[tuple[str, str]]:
    return [(f.category, f.status) for f in report.findings]


@pytest.mark.parametrize(
    "script", [PER_FEATURE, FROZEN_SCALE], ids=["per-feature-table", "frozen-scale"]
)
def test_weights_training_separates_or_that_are_frozen_are_not_an_initialization_defect(
    tmp_path: Path, script: str
) -> None:
    report = planner_report(tmp_path, script)
    assert ("bad_initialization", "confirmed") not in _categories(report)


def test_units_still_identical_at_the_end_of_the_run_are_confirmed(tmp_path: Path) -> None:
    report = planner_report(tmp_path, CONSTANT)
    found = [f for f in report.findings if f.category == "bad_initialization"]
    assert found and found[0].status == "confirmed"
    assert "the units never came to differ" in found[0].evidence[0].text
