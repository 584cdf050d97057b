"""An evaluation metric that broadcasts the same prediction-against-target layout as the
training loss does ([N, 1] outputs against [N] targets, in both) inherits the model's wrong
output shape: the defect is the loss's broadcast (stage 3), not a second one in the metric
code. A metric broadcasting on its own (the loss squeezes) stays the metric's defect: see
test_metric_unit_axis.py."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
x = torch.randn(1200, 6, generator=g)
y = x @ torch.randn(6, generator=g) + 0.1 * torch.randn(1200, generator=g)
xtr, ytr, xva, yva = x[:1000], y[:1000], x[1000:], y[1000:]
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(15):
    for i in range(0, 1000, 50):
        loss = F.mse_loss(model(xtr[i : i + 50]), ytr[i : i + 50])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(xva)
    rmse = ((pred - yva) ** 2).mean().sqrt().item()
    print(f"epoch {epoch} loss {loss.item():.4f} val_rmse {rmse:.4f}")
"""


def test_a_metric_inheriting_the_loss_s_broadcast_is_not_a_second_defect(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    confirmed = [f.category for f in report.findings if f.status == "confirmed"]
    assert confirmed == ["broadcast_mismatch"], report.findings
