"""A loss helper of the repo called with the model's output where its parameters name the
target (`gamma_deviance(y_true, y_pred)` called as `gamma_deviance(mu, y)`, round 13).
The names only point at the call; the run decides: with the two arguments exchanged in
the run's own copy, the model's output ends closer to its target than any seed of the run
as written. A helper symmetric in its arguments (a squared error written in the Keras
order) changes nothing when exchanged, and a helper whose names agree with its call is
never exchanged."""

from __future__ import annotations

import pytest
from conftest import planner_report

from torch_investigate.tools.code.checks import run_static_checks
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.trace.call_note import NAME, _rewrite

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
def HELPER
X = torch.randn(3000, 5)
y = torch.exp(0.8 + 0.5 * X[:, 0] - 0.3 * X[:, 1]) * torch.distributions.Gamma(2.0, 2.0).sample((3000,))
class Sev(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 32), nn.Tanh(), nn.Linear(32, 1))
    def forward(self, x):
        return torch.exp(self.net(x).squeeze(-1))
model = Sev()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(5):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        mu = model(X[idx])
        loss = CALL
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""
GAMMA = (
    "gamma_deviance(y_true, y_pred):\n"
    "    return (2 * (torch.log(y_pred / y_true) + y_true / y_pred - 1)).mean()"
)
SQUARED = "squared_error(y_true, y_pred):\n    return ((y_pred - y_true) ** 2).mean()"


def _repo(helper: str, call: str) -> str:
    return SCRIPT.replace("HELPER", helper).replace("CALL", call)


def test_the_static_check_points_at_the_call_whose_roles_the_names_reverse():
    found = run_static_checks(
        CodeIndex.from_sources({"train.py": _repo(GAMMA, "gamma_deviance(mu, y[idx])")}),
        strict=True,
    )
    assert [(f.category, f.line) for f in found if f.category == "loss_args_swapped"] == [
        ("loss_args_swapped", 21)
    ]
    agreeing = run_static_checks(
        CodeIndex.from_sources({"train.py": _repo(GAMMA, "gamma_deviance(y[idx], mu)")}),
        strict=True,
    )
    assert not [f for f in agreeing if f.category == "loss_args_swapped"]


POISSON = (
    "poisson_nll(counts, log_rate):\n    return (torch.exp(log_rate) - counts * log_rate).mean()"
)


def test_an_argument_spelled_as_the_helper_s_other_parameter_points_at_the_call():
    """Names that say nothing of roles (`counts`, `log_rate`): the caller passes its
    `log_rate` where the helper has `counts`, so the orders differ, whatever they mean."""
    calls = {
        "poisson_nll(log_rate, y[idx])": [("loss_args_swapped", 21)],
        "poisson_nll(y[idx], log_rate)": [],
    }
    for call, expected in calls.items():
        source = _repo(POISSON, call).replace("mu = model(X[idx])", "log_rate = model(X[idx])")
        found = run_static_checks(CodeIndex.from_sources({"train.py": source}), strict=True)
        assert [
            (f.category, f.line) for f in found if f.category == "loss_args_swapped"
        ] == expected


def test_the_rewrite_routes_only_that_call_through_the_noting_wrapper():
    source = b"a = 1\nloss = helper(out, y, eps=1e-6) + other(y)\n"
    rewritten = _rewrite(source, 2, 1)
    assert rewritten == f"a = 1\nloss = {NAME}(helper)(out, y, eps=1e-6) + other(y)\n".encode()
    assert _rewrite(source, 1, 1) is None  # no call with two arguments on line 1


@pytest.mark.slow
def test_a_gamma_deviance_called_in_the_keras_order_is_confirmed(tmp_path):
    report = planner_report(tmp_path, _repo(GAMMA, "gamma_deviance(mu, y[idx])"))
    found = [(f.category, f.line) for f in report.findings if f.status == "confirmed"]
    assert found == [("loss_args_swapped", 21)]


def test_a_symmetric_helper_in_the_keras_order_is_healthy(tmp_path):
    report = planner_report(tmp_path, _repo(SQUARED, "squared_error(mu, y[idx])"))
    assert not [f for f in report.findings if f.status == "confirmed"]
    assert any(f.category == "loss_args_swapped" and f.status == "refuted" for f in report.findings)


def test_a_call_inside_an_f_string_is_wrapped_with_quotes_that_compile():
    # test_gan_ring: `print(f"... {accuracy(out, y):.3f}")` once became a SyntaxError;
    # a held-out metric printed this way is the program's only evaluation reading
    source = b'print(f"acc {accuracy(out, y):.3f}")\n'
    rewritten = _rewrite(source, 1, 1, "NAME", ', "train.py:1:0:1"')
    assert rewritten == b"print(f\"acc {NAME(accuracy, 'train.py:1:0:1')(out, y):.3f}\")\n"
    compile(rewritten, "train.py", "exec")


def test_the_same_call_twice_in_an_f_string_is_wrapped_once():
    # positions inside an f-string are unreliable before Python 3.12: the rewrite is kept
    # only when taking the one wrapper off again gives the program as written
    source = b'print(f"{acc(a, y)} {acc(a, y)}")\n'
    rewritten = _rewrite(source, 1, 1, "NAME", ', "k"')
    assert rewritten is not None and rewritten.count(b"NAME(") == 1


FOCAL = """import torch
import torch.nn.functional as F
from torch import nn


def focal_bce(logits, targets, gamma=2.0):
    bce = -(targets * F.logsigmoid(logits) + (1 - targets) * F.logsigmoid(-logits))
    p = torch.sigmoid(logits)
    p_t = p * targets + (1 - p) * (1 - targets)
    return ((1 - p_t) ** gamma * bce).mean()


torch.manual_seed(0)
x = torch.randn(1500, 8)
y = (x[:, :3].sum(1) > 0).float()
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(6):
    for i in torch.randperm(1500).split(50):
        logits = model(x[i]).squeeze(-1)
        loss = focal_bce(y[i], logits)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_the_runaway_a_swapped_focal_helper_makes_is_its_consequence(tmp_path):
    """The labels read as logits and the logits as targets make the loss fall without
    bound (round 21's focal loss). The seeded runaways differ too much for the distance
    band, so the bound decides: exchanged, the loss stays bounded. Applied alone, that
    fix bounds the objective, so only the swap stays confirmed and the unbounded objective
    is its symptom."""
    report = planner_report(tmp_path, FOCAL)
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["loss_args_swapped"], report.findings
    runaway = [f for f in report.findings if f.category == "objective_unbounded"]
    assert runaway and all(f.status == "plausible" for f in runaway), report.findings


def test_the_focal_helper_called_in_its_own_order_is_healthy(tmp_path):
    report = planner_report(
        tmp_path, FOCAL.replace("focal_bce(y[i], logits)", "focal_bce(logits, y[i])")
    )
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


FOCAL_MODULE = """import torch
import torch.nn.functional as F
from torch import nn


class FocalBCE(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, SIGNATURE):
        bce = F.binary_cross_entropy_with_logits(y_pred, y_true, reduction="none")
        p = torch.sigmoid(y_pred)
        p_t = p * y_true + (1 - p) * (1 - y_true)
        return ((1 - p_t) ** self.gamma * bce).mean()


torch.manual_seed(0)
x = torch.randn(1500, 8)
y = (x[:, :3].sum(1) > 0).float()
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = FocalBCE()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(6):
    for i in torch.randperm(1500).split(50):
        loss = criterion(model(x[i]).squeeze(-1), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_a_loss_module_whose_forward_takes_the_target_first_is_swapped_at_its_call(tmp_path):
    """`criterion(model(x), y)` into `forward(self, y_true, y_pred)`: the module's call is
    the helper's call; exchanged there, the whole focal loss (not only its inner BCE) gets
    its roles back and the runaway ends."""
    report = planner_report(tmp_path, FOCAL_MODULE.replace("SIGNATURE", "y_true, y_pred"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["loss_args_swapped"], report.findings
    assert found[0].location.line == 26, found[0]


def test_a_loss_module_called_in_its_own_order_is_healthy(tmp_path):
    report = planner_report(tmp_path, FOCAL_MODULE.replace("SIGNATURE", "y_pred, y_true"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
