"""A sigmoid's output compared with 0 in evaluation (`(torch.sigmoid(logits) > 0)`): it
lies inside (0, 1), so every element compares True whatever the model says, and the
cumulative-logit grade counted from it is the top grade for every row. The tracer records
the comparison with a threshold at or beyond the output's range and that it came out one
value every time -> metric_bug at that line, and not a train/evaluation mismatch (the
accuracy stays at chance because of the metric). With the threshold at 0.5 it is
healthy, and so is a calibration error binned over edges from 0 to 1, whose first and
last comparisons meet the range's ends (round 05's healthy isotonic calibrator)."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn as nn

torch.manual_seed(0)
GRADES = 4
x = torch.randn(2400, 5)
score = x[:, 0] + 0.5 * x[:, 1] - x[:, 2] + 0.2 * torch.randn(2400)
y = torch.bucketize(score, torch.quantile(score, torch.tensor([0.25, 0.5, 0.75])))


class Cumulative(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(5, 32), nn.Tanh(), nn.Linear(32, 1))
        self.cuts = nn.Parameter(torch.linspace(-1, 1, GRADES - 1))

    def forward(self, x):
        return self.f(x) - self.cuts


def grade_from(logits):
    return (torch.sigmoid(logits) > THRESHOLD).sum(1)


def ece(probs, hits, bins=10):
    edges = torch.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (probs > lo) & (probs <= hi)
        if sel.any():
            total += sel.float().mean().item() * abs(probs[sel].mean().item() - hits[sel].float().mean().item())
    return total


model = Cumulative()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(8):
    perm = torch.randperm(2000)
    for i in range(0, 2000, 50):
        idx = perm[i : i + 50]
        above = (y[idx, None] > torch.arange(GRADES - 1)).float()
        loss = nn.functional.binary_cross_entropy_with_logits(model(x[idx]), above)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(x[2000:])
        acc = (grade_from(out) == y[2000:]).float().mean().item()
        calib = ece(torch.sigmoid(out[:, 1]), y[2000:] > 1)
    print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.4f} ece {calib:.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol, f.line) for f in report.findings if f.status == "confirmed"]


def test_a_sigmoid_compared_with_zero_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("THRESHOLD", "0"))
    assert _confirmed(report) == [("metric_bug", "grade_from", 22)]


def test_a_sigmoid_compared_with_one_half_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("THRESHOLD", "0.5"))
    assert _confirmed(report) == []
