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


def test_plain_tensors_updated_by_hand_are_no_unregistered_parameters(tmp_path):
    # a hand-written optimizer class over plain leaf tensors: no torch optimizer holds
    # them, and they change every step
    script = """import torch


class MomentumSGD:
    def __init__(self, params, lr, momentum=0.9):
        self.params = list(params)
        self.lr, self.momentum = lr, momentum
        self.velocity = [torch.zeros_like(p) for p in self.params]

    @torch.no_grad()
    def step(self):
        for p, v in zip(self.params, self.velocity):
            v.mul_(self.momentum).add_(p.grad)
            p -= self.lr * v

    def zero_grad(self):
        for p in self.params:
            p.grad = None


torch.manual_seed(0)
x = torch.randn(1024, 4)
y = (x[:, 0] * x[:, 1] > 0).long()
w1 = (torch.randn(4, 32) * 0.5).requires_grad_()
b1 = torch.zeros(32, requires_grad=True)
w2 = (torch.randn(32, 2) * 0.2).requires_grad_()
opt = MomentumSGD([w1, b1, w2], lr=0.05)
for epoch in range(8):
    for i in torch.randperm(1024).split(64):
        logits = torch.relu(x[i] @ w1 + b1) @ w2
        loss = torch.nn.functional.cross_entropy(logits, y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""
    report = planner_report(tmp_path, script)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
