"""A term of the loss computed from `.data` between the forward and the loss (an angle
wrap in a loss helper, round 19's heading model): its value counts, its gradient is gone,
and the penalty beside it keeps every parameter reachable, so reachability alone passes.
The cut is marked where it happens and followed into the loss; keeping the graph there
lets the model learn: detached_graph, at the helper."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import math

import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(2048, 8)
theta = torch.atan2(x[:, 0] + 0.5 * x[:, 1], x[:, 2] - 0.3 * x[:, 3])


def wrap(a):
    return torch.remainder(CUT + math.pi, 2 * math.pi) - math.pi


net = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 2))
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
for epoch in range(6):
    for j in torch.randperm(1600).split(64):
        sc = net(x[j])
        err = wrap(torch.atan2(sc[:, 0], sc[:, 1]) - theta[j])
        unit = ((sc**2).sum(1) - 1) ** 2
        loss = (err**2).mean() + 0.1 * unit.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        sc = net(x[1600:])
        mae = wrap(torch.atan2(sc[:, 0], sc[:, 1]) - theta[1600:]).abs().mean().item()
    print(f"epoch {epoch} val_mae_rad={mae:.3f}")
"""


def test_a_loss_term_cut_by_data_on_its_way_to_the_loss_is_a_detached_graph(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("CUT", "a.data"))
    found = [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]
    assert found == [("detached_graph", "wrap", 12)], report.findings


@pytest.mark.slow
def test_the_same_term_kept_in_the_graph_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("CUT", "a"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
