"""Training windows cut with a stride while their targets are read at consecutive
positions (round 15's tide forecaster): target k belongs to window k, not to the window
that starts at k * stride. The evaluation windows (stride 1) are paired right, so the
model's evaluation loss never gets below what the evaluation targets' variance allows,
and the pairing test's real pairs transfer no better than shuffled ones:
label_misaligned, placed at the helper that cuts the targets apart from the inputs. The
same script with the targets read at each window's own start is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
rng = np.random.default_rng(0)
t = np.arange(6000)
series = np.zeros(len(t))
for period, amp in ((12.4, 1.0), (12.0, 0.4), (25.8, 0.3), (23.9, 0.3)):
    series += amp * np.cos(2 * np.pi * t / period + rng.uniform(0, 6.3))
series = (series + 0.05 * rng.normal(size=len(t))).astype(np.float32)
def cut(s, stride):
    starts = np.arange(0, len(s) - 24 - 3, stride)
    return np.stack([s[a:a + 24] for a in starts]), starts
def targets(s, starts):
    return TARGETS
tr, va = series[:4000], series[4000:]
xt, st = cut(tr, 3)
yt = targets(tr, st)
xv, sv = cut(va, 1)
yv = targets(va, sv)
xt, yt, xv, yv = map(torch.from_numpy, (xt, yt, xv, yv))
model = nn.Sequential(nn.Linear(24, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(30):
    perm = torch.randperm(len(xt))
    for i in range(0, len(perm), 50):
        b = perm[i:i + 50]
        loss = nn.functional.mse_loss(model(xt[b]).squeeze(-1), yt[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 5 == 4:
        with torch.no_grad():
            v = nn.functional.mse_loss(model(xv).squeeze(-1), yv).item()
        print(f"epoch {epoch} loss {loss.item():.4f} val_mse {v:.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def test_targets_that_ignore_the_window_stride_are_misaligned(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("TARGETS", "s[26:26 + len(starts)]"))
    assert _confirmed(report) == [("label_misaligned", "targets")]
    pairing = next(i for s in report.stages for i in s.checklist if i.id == "pairing")
    assert "evaluation targets' distribution alone allows" in pairing.detail


def test_targets_read_at_each_window_s_own_start_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("TARGETS", "s[starts + 26]"))
    assert _confirmed(report) == []
