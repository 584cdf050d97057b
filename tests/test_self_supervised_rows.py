"""An encoder pretrained self-supervised (its target: the next reading of the input stream)
on every window, held-out days included, then a head trained on the training windows only:
the held-out inputs were seen in training, but never with the label the evaluation scores.
Not leakage. The same pipeline whose supervised head trains on the held-out windows too is."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
days, steps, lookback = 40, 60, 8
t = torch.arange(steps) / steps
rec = torch.stack(
    [torch.sin(3.1 * t + torch.rand(1) * 2)[:, None] + 0.1 * torch.randn(steps, 3) for _ in range(days)]
)
lift = rec[:, :, 0] * rec[:, :, 1] + 0.05 * torch.randn(days, steps)
xs, nxt, ys = [], [], []
for d in range(days):
    for s in range(lookback, steps):
        xs.append(rec[d, s - lookback:s])
        nxt.append(rec[d, s])  # the next reading
        ys.append(lift[d, s])
x, nxt, y = torch.stack(xs), torch.stack(nxt), torch.stack(ys)
cut = len(x) * 4 // 5
xtr, ytr, xva, yva = x[:cut], y[:cut], x[cut:], y[cut:]


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(3, 16, batch_first=True)

    def forward(self, v):
        return self.gru(v)[1][-1]


enc, nxt_head = Encoder(), nn.Linear(16, 3)
opt = torch.optim.Adam(list(enc.parameters()) + list(nxt_head.parameters()), lr=3e-3)
for epoch in range(2):
    for b in torch.randperm(len(x)).split(64):
        loss = F.mse_loss(nxt_head(enc(x[b])), nxt[b])
        opt.zero_grad()
        loss.backward()
        opt.step()

enc.requires_grad_(False)
head = nn.Sequential(nn.Linear(19, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(head.parameters(), lr=3e-3)
XS, YS = SUPERVISED
for epoch in range(3):
    for b in torch.randperm(len(XS)).split(64):
        z = torch.cat([enc(XS[b]), XS[b][:, -1]], 1)
        loss = F.mse_loss(head(z).squeeze(1), YS[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    pred = head(torch.cat([enc(xva), xva[:, -1]], 1)).squeeze(1)
    print(f"val_rmse={(pred - yva).pow(2).mean().sqrt().item():.4f}")
"""


def test_pretraining_on_held_out_inputs_without_their_labels_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SUPERVISED", "xtr, ytr"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


@pytest.mark.slow  # the leak itself: test_full_graph_rows keeps one in the default run
def test_a_supervised_head_trained_on_the_held_out_windows_is_leakage(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SUPERVISED", "x, y"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert "split_leakage" in [f.category for f in found], report.findings
