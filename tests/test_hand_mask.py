"""A loss written by hand on batches cut by hand (`X[idx]`, `y[idx]`), with a 0/1 mask
multiplied in: a mask that keeps only night hours (every kept target 0) while the batch
holds daylight power is a loss_mask_error; the same helper given the mask it expects is
healthy. The tracer records the mask at the multiplication (tools/trace/difference_mask.py)."""

from __future__ import annotations

from conftest import planner_report

SOLAR = """\
import torch
from torch import nn


def masked_mse(pred, target, ignore):
    # mean squared error over the kept elements; `ignore` is True where left out
    keep = (~ignore).float()
    return ((pred - target) ** 2 * keep).sum() / keep.sum().clamp(min=1.0)


torch.manual_seed(0)
hour = torch.randint(0, 24, (4000,)).float()
cloud = torch.rand(4000)
X = torch.stack([torch.sin(hour / 24 * 6.283), torch.cos(hour / 24 * 6.283), cloud], 1)
night = (hour < 6) | (hour > 18)
y = torch.where(night, 0.0, torch.sin((hour - 6) / 12 * 3.1416) * (1 - 0.7 * cloud))
model = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    perm = torch.randperm(4000)
    for i in range(0, 4000, 200):
        idx = perm[i:i + 200]
        loss = masked_mse(model(X[idx]).squeeze(1), y[idx], MASK[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.5f}")
"""


def test_a_mask_that_keeps_only_the_night_hours_is_a_mask_error(tmp_path):
    report = planner_report(tmp_path, SOLAR.replace("MASK[idx]", "~night[idx]"))
    confirmed = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in confirmed] == ["loss_mask_error"], [
        (f.category, f.status) for f in report.findings
    ]
    assert "every kept target is 0" in confirmed[0].evidence[0].text


def test_the_mask_the_helper_expects_is_healthy(tmp_path):
    report = planner_report(tmp_path, SOLAR.replace("MASK[idx]", "night[idx]"))
    run = next(i for s in report.stages for i in s.checklist if i.id == "run")
    assert run.outcome == "passed", run.detail  # the program itself ran and trained
    assert not [f for f in report.findings if f.status == "confirmed"], [
        (f.category, f.evidence[0].text) for f in report.findings
    ]
