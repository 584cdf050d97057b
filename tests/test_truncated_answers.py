"""Integer answers cast from a model's real values by truncation (`score.long()`: 2.97
becomes 2) and compared with integer labels: the tracer also counts how many the same
values rounded would match. Clearly more -> metric_bug at the cast. Its twin floors on
purpose: the labels are buckets of a real value the model regresses, so the floor
matches best as written."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(3000, 6)
value = 2.0 + 1.2 * X[:, 0] - 0.8 * X[:, 1]
TARGET
model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
xtr, ytr, xva, yva, vtr = X[:2400], y[:2400], X[2400:], y[2400:], FIT[:2400]
for epoch in range(15):
    perm = torch.randperm(2400)
    for i in range(0, 2400, 100):
        j = perm[i:i + 100]
        loss = nn.functional.mse_loss(model(xtr[j]).squeeze(1), vtr[j])
        opt.zero_grad()
        loss.backward()
        opt.step()
model.eval()
with torch.no_grad():
    score = model(xva).squeeze(1)
grade = score.long().clamp(0, 4)
print(f"val_acc={(grade == yva).float().mean().item():.4f}")
"""

# levels: the value rounded; the model regresses the levels themselves
ROUNDED = SCRIPT.replace("TARGET", "y = value.round().clamp(0, 4).long()").replace(
    "FIT", "y.float()"
)
# buckets: the value's floor; the model regresses the value, and the floor is the bucket
FLOORED = SCRIPT.replace("TARGET", "y = value.floor().clamp(0, 4).long()").replace(
    "FIT", "value"
)


def test_answers_truncated_from_real_values_that_rounding_would_match_are_a_metric_bug(
    tmp_path,
):
    report = planner_report(tmp_path, ROUNDED)
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [(f.category, f.line) for f in found] == [("metric_bug", 22)]


def test_buckets_floored_from_the_value_they_bucket_are_no_defect(tmp_path):
    report = planner_report(tmp_path, FLOORED)
    assert not [f for f in report.findings if f.category == "metric_bug"]
