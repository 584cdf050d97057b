"""Predictions compared with labels that take values no label of the run takes: a
median filter's indices (positions in a window) compared with 0/1 frame labels, where its
values were meant. Predictions over every class compared per task with one task's labels
(a class-incremental evaluation of a model that forgot) take classes other labels of the
run take: no metric bug."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(4000, 5)
y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
xv, yv = torch.randn(20, 100, 5), None
yv = (xv[..., 0] + 0.5 * xv[..., 1] > 0).long()


def smooth(decisions, k=5):
    padded = F.pad(decisions.float().unsqueeze(1), (k // 2, k // 2), mode="replicate").squeeze(1)
    return padded.unfold(1, k, 1).median(dim=-1)[PICK]


model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for i in torch.randperm(4000).split(100):
        loss = F.cross_entropy(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        raw = model(xv).argmax(-1)
    model.train()
    print(f"epoch {epoch} acc={(smooth(raw) == yv).float().mean().item():.3f}")
"""


def test_window_positions_compared_with_labels_are_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PICK", "1"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["metric_bug"], report.findings
    assert found[0].location.line == 14  # the median whose indices were taken


def test_the_window_s_values_compared_with_labels_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PICK", "0"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
