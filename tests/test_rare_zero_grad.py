"""A zero_grad() that runs only under a logging condition: gradients are summed over the
steps between two logs, and every update applies the sum. The defect is placed at the
reset that runs too rarely. Deliberate accumulation (a reset and a step every k batches,
the loss divided by k) is the healthy twin. Round 22's case02."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(2000, 6)
y = (x @ torch.randn(6) + 0.3 * torch.sin(3 * x[:, 0])).unsqueeze(1)
model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
step = 0
for epoch in range(8):
    for i in torch.randperm(1800).split(30):
BODY
with torch.no_grad():
    print(f"val_mse={F.mse_loss(model(x[1800:]), y[1800:]).item():.4f}")
"""

RARE = """        loss = F.mse_loss(model(x[i]), y[i])
        loss.backward()
        opt.step()
        if step % 50 == 0:
            opt.zero_grad()
            print(f"step {step} mse {loss.item():.4f}")
        step += 1"""

ACCUMULATED = """        loss = F.mse_loss(model(x[i]), y[i]) / 4
        loss.backward()
        if (step + 1) % 4 == 0:
            opt.step()
            opt.zero_grad()
        if step % 50 == 0:
            print(f"step {step} mse {4 * loss.item():.4f}")
        step += 1"""


def test_a_reset_only_when_logging_leaves_gradients_to_accumulate(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("BODY", RARE))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["missing_zero_grad"], report.findings
    line = SCRIPT.replace("BODY", RARE).splitlines().index("            opt.zero_grad()") + 1
    assert (found[0].file, found[0].line) == ("train.py", line)
    assert "ran at" in found[0].evidence[0].text


def test_a_reset_with_every_accumulated_step_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("BODY", ACCUMULATED))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
