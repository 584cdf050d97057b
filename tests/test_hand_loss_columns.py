"""A hand-written loss on rows cut by hand (`((pred - y[idx] / scale) ** 2).mean()`) has
its target compared with the model's input columns as a loss function's target is: a
forecasting window cut one day too late holds the value it must predict, standardized
with the inputs' statistics (round 29 case06). The window that ends before its target is
the task, and stays healthy."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn
from numpy.lib.stride_tricks import sliding_window_view


def make_windows(level, lookback):
    lv = sliding_window_view(level, lookback + 1)
    x = lv[:, CUT]
    y = lv[:, -1]
    return x.astype(np.float32), y.astype(np.float32)


rng = np.random.default_rng(0)
level = np.cumsum(rng.normal(size=3000)) * 0.3 + 5 * np.sin(np.arange(3000) / 20)
X, y = make_windows(level, 20)
cut = int(0.8 * len(X))
scale = level[:cut].std()
Xtr, ytr = torch.tensor(X[:cut]), torch.tensor(y[:cut])
Xva, yva = torch.tensor(X[cut:]), torch.tensor(y[cut:])
mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(8):
    perm = torch.randperm(len(Xtr))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        pred = model(Xtr[idx]).squeeze(-1)
        loss = ((pred - ytr[idx] / scale) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    rmse = torch.sqrt(((model(Xva).squeeze(-1) * scale - yva) ** 2).mean()).item()
print(f"val_rmse={rmse:.3f}")
"""


def test_a_window_that_holds_its_target_is_confirmed_leakage(tmp_path: Path) -> None:
    report = planner_report(tmp_path, SCRIPT.replace("CUT", "1:"))
    found = [(f.category, f.status) for f in report.findings if f.status == "confirmed"]
    assert found == [("split_leakage", "confirmed")], report.findings
    assert "scaled and shifted" in report.findings[0].evidence[0].text


def test_a_window_that_ends_before_its_target_is_healthy(tmp_path: Path) -> None:
    report = planner_report(tmp_path, SCRIPT.replace("CUT", ":-1"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
