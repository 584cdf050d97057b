"""A forecasting window cut `horizon` steps too late ends with the day it must predict
(round 23's fjord temperatures): the leak is placed where the input window is sliced
apart from its target, in the helper that makes both (`make_windows`), not at the caller
that stacks the helper's arrays into tensors. Cut right, nothing is confirmed."""

from __future__ import annotations

import pytest
from conftest import planner_report

WINDOWS = """import numpy as np


def make_windows(series, lookback, horizon):
    X, y = [], []
    for start in range(len(series) - lookback - horizon + 1):
        X.append(series[start + SHIFT:start + SHIFT + lookback])
        y.append(series[start + lookback + horizon - 1])
    return np.stack(X), np.array(y, dtype=np.float32)
"""

SCRIPT = """import numpy as np
import torch
from torch import nn
from windows import make_windows


def build(series, lookback, horizon, cut):
    w, t = make_windows(series, lookback, horizon)
    feats = np.concatenate([w, np.ones((len(w), 1), np.float32)], 1)
    return torch.from_numpy(feats[:cut]), torch.from_numpy(t[:cut])


rng = np.random.default_rng(0)
a = np.zeros(3000, np.float32)
for i in range(1, 3000):
    a[i] = 0.9 * a[i - 1] + rng.normal(0, 0.5)
X, y = build(a, 16, 3, 2500)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(17, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(3):
    perm = torch.randperm(len(X))
    for i in range(0, len(X), 128):
        idx = perm[i:i + 128]
        loss = nn.functional.mse_loss(model(X[idx]).squeeze(1), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def _confirmed(tmp_path, shift):
    (tmp_path / "windows.py").write_text(WINDOWS.replace("SHIFT", shift))
    report = planner_report(tmp_path, SCRIPT)
    return [(f.category, f.file, f.symbol) for f in report.findings if f.status == "confirmed"]


@pytest.mark.slow
def test_a_window_cut_to_end_on_its_target_is_placed_where_it_is_sliced(tmp_path):
    assert _confirmed(tmp_path, "horizon") == [("split_leakage", "windows.py", "make_windows")]


def test_a_window_that_ends_before_its_target_is_healthy(tmp_path):
    assert _confirmed(tmp_path, "0") == []
