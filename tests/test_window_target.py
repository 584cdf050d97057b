"""A forecasting target built by rolling the series the wrong way (round 14's wave
heights: torch.roll(h, shifts=horizon) is `horizon` steps in the past, inside the input
window). The window has channels ([B, C, T]), so each element of a row is compared with
the target: one equals it in every row of every batch -> split_leakage. Rolled the right
way (the future) no element does."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import math
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
t = torch.arange(6000, dtype=torch.float32)
h = torch.sin(t / 30) + 0.5 * torch.sin(t / 7 + 1) + 0.1 * torch.randn(6000)
wind = torch.cos(t / 40) + 0.1 * torch.randn(6000)
series = torch.stack([h, wind])                # [C, T]
W, HORIZON = 32, 6
target = torch.roll(h, shifts=SHIFT)
starts = torch.arange(0, 6000 - W - HORIZON)
x = torch.stack([series[:, s:s + W] for s in starts.tolist()])   # [N, C, W]
y = target[starts + W - 1]
loader = DataLoader(TensorDataset(x[:4000], y[:4000]), batch_size=128, shuffle=True)
model = nn.Sequential(nn.Flatten(), nn.Linear(2 * W, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def _confirmed(report):
    return [f.category for f in report.findings if f.status == "confirmed"]


@pytest.mark.slow
def test_a_target_rolled_into_the_past_is_inside_the_window(tmp_path):
    assert _confirmed(planner_report(tmp_path, SCRIPT.replace("SHIFT", "HORIZON"))) == [
        "split_leakage"
    ]


def test_a_target_rolled_into_the_future_is_healthy(tmp_path):
    assert _confirmed(planner_report(tmp_path, SCRIPT.replace("SHIFT", "-HORIZON"))) == []
