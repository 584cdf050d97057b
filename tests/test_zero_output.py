"""A readout that starts at zero and that nothing trains (plain tensors with
requires_grad, not nn.Parameters) keeps every output exactly zero: no value can show
whether the forward reads its input, so that is untested, and the tensors the optimizer
never holds are the defect."""

from __future__ import annotations

from conftest import planner_report

ZERO_READOUT = """\
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 32), nn.ReLU())
        # the readout starts at zero so every sample begins at p = 0.5
        self.w_out = torch.zeros(32, requires_grad=True)
        self.b_out = torch.zeros(1, requires_grad=True)

    def forward(self, x):
        return self.trunk(x) @ self.w_out + self.b_out


torch.manual_seed(0)
X = torch.randn(2000, 8)
y = (X[:, 0] - X[:, 1] > 0).float()
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(5):
    perm = torch.randperm(2000)
    for i in range(0, 2000, 64):
        idx = perm[i:i + 64]
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(X[idx]), y[idx])
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def test_an_untrained_zero_readout_is_unregistered_not_an_output_that_ignores_its_input(tmp_path):
    report = planner_report(tmp_path, ZERO_READOUT)
    confirmed = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in confirmed] == ["unregistered_parameters"]
    assert report.root_cause == confirmed[0].id
    item = next(i for s in report.stages for i in s.checklist if i.id == "input_dependence")
    assert item.outcome == "not_applicable" and "exactly zero" in item.detail
