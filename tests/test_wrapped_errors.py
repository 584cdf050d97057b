"""An evaluation difference the program wraps before it reads it (`torch.remainder(pred -
theta + pi, 2 * pi) - pi` for headings): the raw `pred - theta` is no error of the
program's, and reading it as one made a healthy heading regressor look as if its
evaluation rows did not relate to their targets (round 32's case07, a confirmed
preprocessing_mismatch on a healthy repo). The wrap takes the record back."""

from __future__ import annotations

import math
from types import SimpleNamespace

import torch
from conftest import planner_report

from torch_investigate.tools.trace import wrapped_errors


def _recorded(rec, out):
    rec.eval_errors.append([0, 1.0, 2])
    rec.eval_error_levels.append([0, 2.0, 2])
    wrapped_errors.mark(out, rec.eval_errors[-1], rec.eval_error_levels[-1])


def test_a_wrapped_difference_takes_its_record_back_and_a_plain_one_keeps_it():
    rec = SimpleNamespace(eval_errors=[[0, 5.0, 2]], eval_error_levels=[[0, 6.0, 2]])
    d = torch.tensor([3.0, -3.0])
    _recorded(rec, d)
    shifted = d + math.pi
    wrapped_errors.after_op(rec, "__add__", (d, math.pi), shifted)
    wrapped_errors.after_op(rec, "remainder", (shifted, 2 * math.pi), shifted % (2 * math.pi))
    assert rec.eval_errors == [[0, 5.0, 2]] and rec.eval_error_levels == [[0, 6.0, 2]]
    plain = torch.tensor([1.0, 2.0])
    _recorded(rec, plain)
    wrapped_errors.after_op(rec, "abs", (plain,), plain.abs())
    assert len(rec.eval_errors) == 2 and len(rec.eval_error_levels) == 2


SCRIPT = """import math
import torch
import torch.nn as nn

torch.manual_seed(0)


def simulate(n, seed):
    g = torch.Generator().manual_seed(seed)
    heading = torch.cumsum(0.05 * torch.randn(n, generator=g), 0) % (2 * math.pi)
    x = torch.stack([torch.sin(heading), torch.cos(heading)], 1) + 0.1 * torch.randn(n, 2, generator=g)
    return x, heading


def angle_error_deg(pred_sc, theta):
    pred = torch.atan2(pred_sc[:, 0], pred_sc[:, 1])
    d = torch.remainder(pred - theta + math.pi, 2 * math.pi) - math.pi
    return d.abs().mean().item() * 180 / math.pi


x, th = simulate(2000, 1)
vx, vth = simulate(500, 2)
target = torch.stack([torch.sin(th), torch.cos(th)], 1)
model = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    for i in range(0, 2000, 100):
        loss = nn.functional.mse_loss(model(x[i : i + 100]), target[i : i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        err = angle_error_deg(model(vx), vth)
    print(f"epoch {epoch} loss {loss.item():.4f} val_err_deg {err:.3f}")
"""


def test_a_heading_regressor_scored_with_a_wrapped_error_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    assert [f.category for f in report.findings if f.status == "confirmed"] == []
