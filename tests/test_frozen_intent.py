"""Frozen parameters handed to the optimizer are a defect when they were meant to train.
`model.parameters()` with a part frozen on purpose is ordinary PyTorch (round 15's fixed
random projection beside a learned embedding: healthy). The run tells: trained, the
frozen part lets the loss fall about as it does frozen -> a suspicion only; a randomly
initialized trunk left frozen while only a head trains (a staged unfreezing that never
happened) makes the loss reach its level several times later -> confirmed."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(3000, 16)
y = (x[:, :3].sum(1) > 0).long()
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 8)
        self.trunk = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU())
        self.head = nn.Linear(8, 2)
    def forward(self, x):
        return self.head(self.trunk(x) + self.proj(x))
model = Net()
FREEZE
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(5):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f}")
"""


def _statuses(report):
    return [f.status for f in report.findings if f.category == "frozen_parameters"]


def test_a_fixed_random_projection_beside_a_trained_trunk_is_no_defect(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("FREEZE", "model.proj.requires_grad_(False)"))
    assert "plausible" in _statuses(report)
    assert not [f for f in report.findings if f.status == "confirmed"]


@pytest.mark.slow
def test_a_random_trunk_never_unfrozen_is_confirmed(tmp_path):
    freeze = "model.trunk.requires_grad_(False)\nmodel.proj.requires_grad_(False)"
    report = planner_report(tmp_path, SCRIPT.replace("FREEZE", freeze))
    assert "confirmed" in _statuses(report)
