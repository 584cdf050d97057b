"""Lagged copies of a series as features, built with the lag-0 copy among them: the
same-day value, which is the target, is then a feature, equal to it up to the scaling in
every batch. Lags that start at one are the task."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
t = torch.arange(3000, dtype=torch.float32)
series = torch.sin(t / 9) + 0.5 * torch.sin(t / 31) + 0.3 * torch.randn(3000)


def lags(s, n):
    return torch.stack([torch.roll(s, k) for k in range(FIRST, FIRST + n)], dim=1)[10:]


x, y = lags(series, 8), series[10:]
x = (x - x.mean(0)) / x.std(0)
y = (y - y.mean()) / y.std()
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(6):
    for i in torch.randperm(2500).split(100):
        loss = F.mse_loss(model(x[i]).squeeze(-1), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    print(f"val_mse={F.mse_loss(model(x[2500:]).squeeze(-1), y[2500:]).item():.4f}")
"""


def test_the_lag_zero_copy_among_the_features_is_leakage(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("FIRST", "0"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["split_leakage"], report.findings


def test_lags_from_one_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("FIRST", "1"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
