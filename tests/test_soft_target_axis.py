"""Soft targets a softmax normalized over the samples (`softmax(affinity, dim=0)`)
multiplied with the model's log-probabilities over the classes (round 23's wine lists):
each row sums to far less than 1, and the rerun with the softmax over the class axis cuts
the program's own held-out error -> wrong_dimension at the softmax. Normalized over the
classes, or over axis 0 of a class-major matrix then transposed, or weighted per class
after a softmax over the classes: nothing is confirmed."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
C, D = 8, 6
proto = torch.randn(C, D)


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, D, generator=g)
    return x, 3.0 * x @ proto.T


def targets(affinity):
    return TARGETS


x, aff = data(3000, 1)
vx, vaff = data(800, 2)
q = targets(aff)
model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, C))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    perm = torch.randperm(len(x))
    for i in range(0, len(x), 100):
        idx = perm[i:i + 100]
        logp = F.log_softmax(model(x[idx]), dim=-1)
        loss = -(q[idx] * logp).sum(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(vx).argmax(-1) == vaff.argmax(-1)).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.3f}")
"""


def _confirmed(tmp_path, targets):
    report = planner_report(tmp_path, SCRIPT.replace("TARGETS", targets))
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def test_soft_targets_normalized_over_the_samples_are_the_wrong_dimension(tmp_path):
    assert _confirmed(tmp_path, "torch.softmax(affinity, dim=0)") == [
        ("wrong_dimension", "targets")
    ]


def test_soft_targets_normalized_over_the_classes_are_healthy(tmp_path):
    assert _confirmed(tmp_path, "torch.softmax(affinity, dim=-1)") == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "targets",
    [
        "torch.softmax(affinity.T, dim=0).T",  # class-major, normalized over the classes
        "torch.softmax(affinity, dim=-1) * torch.linspace(0.5, 1.5, C)",  # class weights
    ],
    ids=["transposed", "class-weighted"],
)
def test_targets_whose_rows_are_the_classes_distributions_are_healthy(tmp_path, targets):
    assert _confirmed(tmp_path, targets) == []
