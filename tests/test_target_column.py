"""An input column equal to the target, row for row, in every training batch: a
forecasting window cut one step too late ends with the value it must predict. Read from
the training loader's (x, y) batches when a hand-written loss names no target."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
t = torch.arange(4000, dtype=torch.float32)
series = torch.sin(t / 9) + 0.5 * torch.sin(t / 23) + 0.1 * torch.randn(4000)


def windows(s, context):
    xs, ys = [], []
    for i in range(0, len(s) - context - 1, 3):
        seg = s[i : i + context + 1]
        xs.append(WINDOW)
        ys.append(seg[context])
    return torch.stack(xs), torch.stack(ys)


x, y = windows(series, 24)
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(24, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(4):
    for xb, yb in loader:
        loss = ((model(xb).squeeze(1) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"mse={loss.item():.5f}")
"""


def test_a_window_that_ends_with_its_target_is_leakage(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("WINDOW", "seg[1:]"))
    found = [f for f in report.findings if f.category == "split_leakage"]
    assert found and found[0].status == "confirmed", report.findings
    assert "column 23 of 24 equals the target" in found[0].evidence[-1].text


def test_a_window_before_its_target_is_no_finding(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("WINDOW", "seg[:context]"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
