"""A forecaster whose input window is cut one step too late: the target (a next profile of
several values) is the window's last block, equal column for column to input columns in
every batch. A window that ends before its target is the task; a conditional
autoencoder (its target beside a condition in one input row) reads its whole target
through a narrow layer, which is its task."""

from __future__ import annotations

from conftest import planner_report

WINDOWS = """import numpy as np
import torch
from torch import nn

LEVELS = 6


def simulate(n):
    rng = np.random.default_rng(3)
    t = np.arange(n)[:, None]
    z = np.linspace(0, 1, LEVELS)[None, :]
    ar = np.zeros((n, LEVELS))
    for i in range(1, n):
        ar[i] = 0.8 * ar[i - 1] + rng.normal(0, 0.3, LEVELS)
    return (np.sin(2 * np.pi * t / 23.0) * np.cos(np.pi * z) + ar).astype(np.float32)


def make_windows(series, window):
    xs, ys = [], []
    for i in range(len(series) - window):
        xs.append(series[i:i + window + EXTRA].reshape(-1))
        ys.append(series[i + window])
    return np.stack(xs), np.stack(ys)


torch.manual_seed(0)
series = simulate(1500)
x, y = map(torch.from_numpy, make_windows(series, 4))
model = nn.Sequential(nn.Linear(x.shape[1], 64), nn.Tanh(), nn.Linear(64, LEVELS))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(4):
    for i in torch.randperm(1200).split(50):
        loss = nn.functional.mse_loss(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    print(f"val_mse={nn.functional.mse_loss(model(x[1200:]), y[1200:]).item():.4f}")
"""

CONDITIONAL_AE = """import torch
from torch import nn

torch.manual_seed(0)
codes = torch.randn(1500, 3)
cond = torch.randn(1500, 12)
x = torch.tanh(codes @ torch.randn(3, 12)) + 0.1 * cond[:, :12]
model = nn.Sequential(nn.Linear(24, 32), nn.Tanh(), nn.Linear(32, 4), nn.Tanh(),
                      nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 12))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(4):
    for i in torch.randperm(1200).split(50):
        recon = model(torch.cat([x[i], cond[i]], dim=1))
        loss = nn.functional.mse_loss(recon, x[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    err = nn.functional.mse_loss(model(torch.cat([x[1200:], cond[1200:]], 1)), x[1200:])
print(f"val_mse={err.item():.4f}")
"""


def test_a_window_that_ends_with_its_target_block_is_leakage(tmp_path):
    report = planner_report(tmp_path, WINDOWS.replace("EXTRA", "1"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["split_leakage"], report.findings
    assert found[0].symbol == "make_windows", found[0]


def test_a_window_that_ends_before_its_target_is_healthy(tmp_path):
    report = planner_report(tmp_path, WINDOWS.replace("EXTRA", "0"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


def test_a_conditional_autoencoder_reading_its_target_through_a_bottleneck_is_healthy(tmp_path):
    report = planner_report(tmp_path, CONDITIONAL_AE)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


def test_the_autoencoder_twin_is_spared_by_its_bottleneck_not_by_chance(tmp_path):
    """The block comparison does see the target among the inputs; the narrow layer is
    what keeps it from being called a leak."""
    report = planner_report(tmp_path, CONDITIONAL_AE)
    items = [i for stage in report.stages for i in stage.checklist if i.id == "leakage"]
    assert any("autoencoder" in i.detail for i in items), items
