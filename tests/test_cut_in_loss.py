"""A graph cut between the forward and the loss: an angle error wrapped through numpy
(`a.detach().cpu().numpy()`) hides the angle head from backward. Keeping the graph fails
on that very line, and the tensor it cuts depended on the parameters the loss cannot
reach: the cut is proven. A logging `.detach().cpu().numpy()` of the same error, whose
parameters reach the loss another way, proves nothing."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import math
import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
def wrap(a):
    WRAP
X = torch.randn(2000, 4)
theta = torch.atan2(X[:, 0], X[:, 1]) + 0.5 * X[:, 2]
speed = X[:, 3] * 2 + X[:, 2]
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 64), nn.Tanh())
        self.angle = nn.Linear(64, 1)
        self.speed = nn.Linear(64, 1)
    def forward(self, x):
        h = self.body(x)
        return self.angle(h).squeeze(-1), self.speed(h).squeeze(-1)
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(6):
    perm = torch.randperm(2000)
    for i in range(0, 2000, 50):
        idx = perm[i:i + 50]
        a, v = model(X[idx])
        err = wrap(a - theta[idx])
        logged = (a - theta[idx]).detach().cpu().numpy()   # for the running average below
        loss = (err ** 2).mean() + ((v - speed[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} mean abs err {np.abs(logged).mean():.3f}")
"""

NUMPY_WRAP = (
    "    w = np.mod(a.detach().cpu().numpy() + math.pi, 2 * math.pi) - math.pi\n"
    "    return torch.as_tensor(w, dtype=a.dtype)"
)
TORCH_WRAP = "    return torch.remainder(a + math.pi, 2 * math.pi) - math.pi"


def test_an_error_wrapped_through_numpy_cuts_the_angle_head(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("    WRAP", NUMPY_WRAP))
    found = [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]
    assert found == [("detached_graph", "wrap")]


def test_a_wrap_in_torch_with_a_logging_detach_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("    WRAP", TORCH_WRAP))
    assert [f.category for f in report.findings if f.status != "refuted"] == []


UNIT_PENALTY = """import math
import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
def wrap(a):
    w = np.mod(a.detach().cpu().numpy() + math.pi, 2 * math.pi) - math.pi
    return torch.as_tensor(w, dtype=a.dtype)
X = torch.randn(2000, 4)
theta = torch.atan2(X[:, 0], X[:, 1]) + 0.5 * X[:, 2]
model = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(6):
    perm = torch.randperm(2000)
    for i in range(0, 2000, 50):
        idx = perm[i:i + 50]
        v = model(X[idx])
        err = wrap(torch.atan2(v[:, 1], v[:, 0]) - theta[idx])
        loss = (err ** 2).mean() + 0.1 * ((v.norm(dim=1) - 1) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def test_a_cut_term_beside_a_term_that_reaches_every_parameter_is_not_refuted(tmp_path):
    """Round 28's case05: the angular error goes through numpy, while a penalty on the
    same output's norm keeps every parameter reachable from the loss. Reachability does
    not observe one term's cut, and the run saw the detach on the way to the loss: the
    suspicion stays, with that observation, and is not refuted."""
    report = planner_report(tmp_path, UNIT_PENALTY)
    cut = [f for f in report.findings if f.category == "detached_graph" and f.symbol == "wrap"]
    assert cut and all(f.status != "refuted" for f in cut), report.findings
    assert any("cut the graph here" in e.text for e in cut[0].evidence), cut[0].evidence
