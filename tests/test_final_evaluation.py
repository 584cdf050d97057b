"""A program that evaluates once, after its last step: the run with evaluation inputs
moved to the training moments (a change run, which stops at the baseline's steps) still
runs what follows its last step up to the next backward, so the evaluation the
comparison needs is recorded. Evaluation inputs scaled by their own maximum while
training standardized them -> preprocessing_mismatch at the evaluation; scaled alike,
healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(3000, 6) * 3 + 1
y = (x[:, 0] - x[:, 1] > 0).long()
mu, sd = x[:2400].mean(0), x[:2400].std(0)
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(4):
    for i in range(0, 2400, 50):
        loss = nn.functional.cross_entropy(model((x[i:i + 50] - mu) / sd), y[i:i + 50])
        opt.zero_grad()
        loss.backward()
        opt.step()
def evaluate(xs, ys):
    model.eval()
    with torch.no_grad():
        pred = model(SCALED).argmax(1)
    return (pred == ys).float().mean().item()
print(f"test_acc {evaluate(x[2400:], y[2400:]):.3f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def test_inputs_scaled_otherwise_for_a_final_evaluation_are_a_mismatch(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SCALED", "xs / xs.abs().max()"))
    assert _confirmed(report) == [("preprocessing_mismatch", "evaluate")]


def test_inputs_scaled_alike_for_a_final_evaluation_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SCALED", "(xs - mu) / sd"))
    assert _confirmed(report) == []
