"""A step size that is merely slower than another is a tuning choice, not a defect, while
the run as written learns (issue 19 A3): graykode's word2vec (Adam at 1e-3) and hunkim's
logistic regression (SGD at 1e-2) both lower their loss over the run, and a fixed batch
fits faster at ten times the rate; neither is `lr_too_low`. A model that cannot fit a
batch is short of capacity only when Adam in place of the program's update cannot fit it
either and a wide network of the same inputs can: hunkim's diabetes MLP (sigmoids, SGD,
full batch of noisy rows) fits it with neither, so capacity is not judged there."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SLOW_BUT_LEARNING = """
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(64, 4)
y = (x[:, 0] - x[:, 1] > 0).float().unsqueeze(1)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.02)
lossf = nn.BCEWithLogitsLoss()
for step in range(300):
    loss = lossf(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""

NOISY_FULL_BATCH = """
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(700, 8)
p = torch.sigmoid(0.4 * x[:, 0] + 0.5)
y = torch.bernoulli(p).unsqueeze(1)        # mostly noise around a base rate
model = nn.Sequential(nn.Linear(8, 6), nn.Sigmoid(), nn.Linear(6, 4), nn.Sigmoid(),
                      nn.Linear(4, 1), nn.Sigmoid())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
lossf = nn.BCELoss()
for step in range(100):
    loss = lossf(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""


def _item(report, name: str):
    return next(i for s in report.stages for i in s.checklist if i.id == name)


def test_a_slower_step_size_is_no_defect_while_the_run_learns(tmp_path: Path) -> None:
    report = planner_report(tmp_path, SLOW_BUT_LEARNING)
    assert not [f for f in report.findings if f.status == "confirmed"]
    sweep = _item(report, "lr_sweep")
    assert sweep.outcome == "passed" and "stage-8 experiment" in sweep.detail


def test_capacity_is_not_judged_on_a_batch_no_model_fits(tmp_path: Path) -> None:
    report = planner_report(tmp_path, NOISY_FULL_BATCH)
    assert not [f for f in report.findings if f.status == "confirmed"]
    capacity = _item(report, "capacity")
    assert capacity.outcome in ("passed", "not_applicable"), capacity.detail
    assert "Adam" in capacity.detail
