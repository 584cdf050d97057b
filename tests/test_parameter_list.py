"""Parameters kept in a plain list attribute (`[nn.Parameter(...) for _ in range(d)]`)
are not registered: model.parameters() and the optimizer built from it never see them,
though the loss reaches them every step. The model's readout starts at zero, so its
first output says nothing about what the input does: it is probed again once training
has moved it."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn


class ARD(nn.Module):
    def __init__(self, d, m):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(m, d))
        self.alpha = nn.Parameter(torch.zeros(m))
        self.raw = SCALES

    def forward(self, x):
        ls = F.softplus(torch.stack(list(self.raw)))
        return torch.exp(-0.5 * torch.cdist(x / ls, self.centers / ls).pow(2)) @ self.alpha


torch.manual_seed(0)
x = torch.randn(1024, 4)
y = torch.sin(2 * x[:, 0])
model = ARD(4, 32)
opt = torch.optim.Adam(model.parameters(), lr=2e-2)
for epoch in range(20):
    for i in torch.randperm(1024).split(128):
        loss = F.mse_loss(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_parameters_in_a_plain_list_are_unregistered(tmp_path):
    report = planner_report(
        tmp_path, SCRIPT.replace("SCALES", "[nn.Parameter(torch.tensor(2.0)) for _ in range(d)]")
    )
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["unregistered_parameters"], report.findings
    assert found[0].location.line == 11


def test_a_parameter_list_and_a_zero_readout_are_healthy(tmp_path):
    report = planner_report(
        tmp_path,
        SCRIPT.replace(
            "SCALES", "nn.ParameterList([nn.Parameter(torch.tensor(2.0)) for _ in range(d)])"
        ),
    )
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
