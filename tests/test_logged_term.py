"""A loss term taken from the logging dict: `logs[k] = v.item()` for every term, then the
total sums one tensor and one of those numbers (weight 1, so the number re-enters the
loss unchanged). The head only that term reaches gets no gradient; the rerun that gives
the tensor back reaches it and learns better -> detached_graph, placed where the number
is taken back. Healthy twins: the tensors summed and the numbers only logged; an
auxiliary head deliberately frozen (or left out of the loss, only monitored) whose logged
loss meets a tensor that is never backward'ed. Round 22's case12."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(2000, 8)
reg = x[:, 0] - 2 * x[:, 1] + 0.3 * torch.randn(2000)
cls = (x[:, 2] + x[:, 3] > 0).float()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 1)
        self.reg_head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        z = self.body(x)
        return self.cls_head(z).squeeze(-1), self.reg_head(z).squeeze(-1)


model = Net()
FREEZE
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
for epoch in range(6):
    logs = {}
    perm = torch.randperm(1600)
    for i in range(0, 1600, 50):
        idx = perm[i : i + 50]
        c, r = model(x[idx])
        losses = {
            "cls": F.binary_cross_entropy_with_logits(c, cls[idx]),
            "reg": F.mse_loss(r, reg[idx]),
        }
        for k, v in losses.items():
            logs[k] = v.item()
        TOTAL
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        c, r = model(x[1600:])
    print(f"epoch {epoch} shown {shown:.4f} val_mse {F.mse_loss(r, reg[1600:]).item():.4f}")
"""

NUMBER = """loss = losses["cls"] + logs["reg"]
        shown = loss.item()"""
TENSORS = """loss = losses["cls"] + losses["reg"]
        shown = logs["cls"] + logs["reg"]"""
# the reg head left out of the loss (frozen, or only monitored); its logged value is
# added to a detached total that is shown, never backward'ed
MONITORED = """loss = losses["cls"]
        shown = (loss.detach() + logs["reg"]).item()"""
FROZEN = "model.reg_head.requires_grad_(False)"


def _script(total: str, freeze: str = "") -> str:
    return SCRIPT.replace("TOTAL", total).replace("FREEZE", freeze)


def _confirmed(report):
    return [(f.category, f.line) for f in report.findings if f.status == "confirmed"]


def test_a_logged_number_summed_into_the_loss_is_a_cut_graph(tmp_path):
    script = _script(NUMBER)
    report = planner_report(tmp_path, script)
    line = script.splitlines().index('        loss = losses["cls"] + logs["reg"]') + 1
    assert _confirmed(report) == [("detached_graph", line)], report.findings


@pytest.mark.parametrize(
    ("total", "freeze"),
    [(TENSORS, ""), (MONITORED, FROZEN), (MONITORED, "")],
    ids=["tensors_summed", "frozen_head", "monitored_head"],
)
def test_numbers_only_logged_are_healthy(tmp_path, total, freeze):
    report = planner_report(tmp_path, _script(total, freeze))
    assert _confirmed(report) == [], report.findings
