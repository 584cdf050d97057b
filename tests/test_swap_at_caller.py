"""A loss helper called with its arguments in the wrong order after a warm-up that calls
the same loss correctly: the swap is placed at the call that passed it (the caller hands
the labels in where the helper takes the logits), and the swap intervention changes only
the calls the run shows swapped, so the warm-up stays correct and the runaway the swap
makes is its consequence."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn


def bootstrap_bce(logits, labels, beta=0.8):
    p = torch.sigmoid(logits).detach()
    return F.binary_cross_entropy_with_logits(HELPER_ARGS)


torch.manual_seed(0)
x = torch.randn(1024, 8)
y = (x[:, :2].sum(1, keepdim=True) > 0).float()
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(10):
    for i in torch.randperm(1024).split(64):
        logits = model(x[i])
        if epoch < 2:
            loss = F.binary_cross_entropy_with_logits(logits, y[i])
        else:
            loss = bootstrap_bce(CALL_ARGS)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def _report(tmp_path, helper_args: str, call_args: str):
    script = SCRIPT.replace("HELPER_ARGS", helper_args).replace("CALL_ARGS", call_args)
    return planner_report(tmp_path, script)


def test_labels_passed_where_the_helper_takes_logits_are_swapped_at_the_call(tmp_path):
    report = _report(tmp_path, "logits, beta * labels + (1 - beta) * p", "y[i], logits")
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["loss_args_swapped"], report.findings
    assert found[0].location.line == 22  # the call, not the helper's loss


def test_a_helper_that_swaps_inside_is_swapped_where_it_calls_the_loss(tmp_path):
    report = _report(tmp_path, "beta * labels + (1 - beta) * p, logits", "logits, y[i]")
    found = [f for f in report.findings if f.status == "confirmed"]
    assert found and found[0].category == "loss_args_swapped", report.findings
    assert found[0].location.line == 8
