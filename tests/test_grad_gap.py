"""A loss helper that computes part of the loss off the graph (an angle wrapped through
numpy, round 28 case05): the loss moves with the model's output along random directions
by more than its gradient predicts. Checked on the helper's own training calls
(tools/trace/grad_check.py); a differentiable helper agrees within rounding, and a
detached focal weight (a deliberate stop-gradient on part of the term) misses far less
than the threshold."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from conftest import planner_report

from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.helper_args import loss_helper_calls
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.trace.grad_check import _compare

SCRIPT = """import numpy as np
import torch
from torch import nn


def wrap(a):
    if isinstance(a, torch.Tensor):
        return WRAP_TENSOR
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def angular_loss(v, theta):
    err = wrap(torch.atan2(v[:, 1], v[:, 0]) - theta)
    unit = (v.norm(dim=1) - 1.0) ** 2
    return (err ** 2).mean() + 0.1 * unit.mean()


torch.manual_seed(0)
x = torch.randn(2000, 4)
theta = torch.atan2(x[:, 1], x[:, 0] + 0.5 * x[:, 2])
model = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(6):
    for i in range(0, 2000, 100):
        loss = angular_loss(model(x[i:i + 100]), theta[i:i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""
NUMPY = "torch.as_tensor(wrap(a.detach().numpy()), dtype=a.dtype)"
TORCH = "torch.remainder(a + np.pi, 2 * np.pi) - np.pi"


def _angular(wrapped: bool):
    def wrap(a):
        if wrapped:
            return torch.as_tensor((a.detach().numpy() + np.pi) % (2 * np.pi) - np.pi)
        return torch.remainder(a + np.pi, 2 * np.pi) - np.pi

    def loss(v, theta):
        err = wrap(torch.atan2(v[:, 1], v[:, 0]) - theta)
        return (err**2).mean() + 0.1 * ((v.norm(dim=1) - 1.0) ** 2).mean()

    return loss


def test_finite_differences_expose_a_term_computed_through_numpy():
    torch.manual_seed(0)
    v, theta = torch.randn(64, 2, requires_grad=True), torch.rand(64) * 6 - 3
    value, fd2, miss2 = _compare(_angular(True), [v, theta], {}, 0)
    assert fd2 > 0 and miss2 / fd2 > 0.9
    value, fd2, miss2 = _compare(_angular(False), [v, theta], {}, 0)
    assert fd2 > 0 and miss2 / fd2 < 1e-4


def test_a_detached_focal_weight_misses_little_and_a_random_helper_gives_no_reading():
    def focal(logits, y):
        p = torch.sigmoid(logits)
        p_t = p * y + (1 - p) * (1 - y)
        bce = torch.nn.functional.binary_cross_entropy_with_logits(logits, y, reduction="none")
        return ((1 - p_t).detach() ** 2 * bce).mean()

    torch.manual_seed(1)
    logits, y = torch.randn(256, requires_grad=True), (torch.rand(256) > 0.5).float()
    _, fd2, miss2 = _compare(focal, [logits, y], {}, 0)
    assert miss2 / fd2 < 0.8

    def noisy(a, b):
        return ((a - b + 0.1 * torch.randn_like(a)) ** 2).mean()

    # each call draws from the same random state: the noise is common to all of them
    _, fd2, miss2 = _compare(noisy, [logits, y], {}, 0)
    assert miss2 / fd2 < 1e-4


def test_the_helper_call_that_feeds_backward_is_found():
    index = CodeIndex.from_sources({"train.py": SCRIPT.replace("WRAP_TENSOR", NUMPY)})
    calls = loss_helper_calls(CheckContext(index, analysis(index)))
    assert calls == [("train.py:25:0:1", "train.py:12:angular_loss")]


def test_an_angle_wrapped_through_numpy_is_a_confirmed_cut(tmp_path: Path):
    report = planner_report(tmp_path, SCRIPT.replace("WRAP_TENSOR", NUMPY))
    found = [f for f in report.findings if f.category == "detached_graph"]
    assert found and found[0].status == "confirmed" and found[0].line == 8
    assert "finite differences" in " ".join(e.text for e in found[0].evidence)


def test_the_same_helper_wrapped_in_torch_is_healthy(tmp_path: Path):
    report = planner_report(tmp_path, SCRIPT.replace("WRAP_TENSOR", TORCH))
    assert not [f for f in report.findings if f.status == "confirmed"]
