"""A loss term turned into a Python number before it is summed: `.item()` of a term that
carries gradient, multiplied by a weight in Python, added to the loss. The number the
tracer hands back keeps where it was cut through that arithmetic; the op that takes it
back in is seen, and the rerun that gives the tensor back there trains the head only
that term reaches -> detached_graph. With every term a number (the total re-wrapped by
`torch.tensor(..., requires_grad=True)`), no parameter is reached: loss_detached_scale.
Summing the tensors is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(2000, 8)
reg = x[:, 0] - 2 * x[:, 1] + 0.3 * torch.randn(2000)
cls = (x[:, 2] + x[:, 3] > 0).long()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 32), nn.ReLU())
        self.reg_head = nn.Linear(32, 1)
        self.cls_head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, x):
        z = self.body(x)
        return self.reg_head(z).squeeze(-1), self.cls_head(z)


def combine(parts, weights):
    COMBINE


model = Net()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(6):
    perm = torch.randperm(1600)
    for i in range(0, 1600, 50):
        idx = perm[i : i + 50]
        r, c = model(x[idx])
        parts = {"reg": F.mse_loss(r, reg[idx]), "cls": F.cross_entropy(c, cls[idx])}
        loss = combine(parts, {"cls": 0.5})
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        r, c = model(x[1600:])
        acc = (c.argmax(1) == cls[1600:]).float().mean().item()
    print(f"epoch {epoch} val_mse {F.mse_loss(r, reg[1600:]).item():.4f} val_acc {acc:.4f}")
"""

ONE_NUMBER = """logged = {k: v.item() for k, v in parts.items()}
    total = parts["reg"]
    for name, w in weights.items():
        total = total + w * logged[name]
    return total"""

ALL_NUMBERS = """total = parts["reg"].item() + sum(w * parts[k].item() for k, w in weights.items())
    return torch.tensor(total, requires_grad=True)"""

TENSORS = """total = parts["reg"]
    for name, w in weights.items():
        total = total + w * parts[name]
    return total"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def test_a_weighted_number_added_to_the_loss_is_a_cut_graph(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("COMBINE", ONE_NUMBER))
    assert _confirmed(report) == [("detached_graph", "combine")]


def test_a_loss_rebuilt_from_numbers_is_a_detached_loss(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("COMBINE", ALL_NUMBERS))
    assert _confirmed(report) == [("loss_detached_scale", "combine")]


def test_the_tensors_summed_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("COMBINE", TENSORS))
    assert _confirmed(report) == []
