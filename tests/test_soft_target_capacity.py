"""A loss with a floor above zero (soft targets spread over neighbouring grades): the
fixed-batch sweep's few steps cannot reach half the first loss, but the run as written
settles below the sweep's best on the full data and the program's own evaluation loss
falls far below what the evaluation targets alone allow. The model can fit: no
insufficient_capacity."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
N, K = 3000, 5
x = torch.randn(N, 8)
score = x[:, 0] + 0.5 * x[:, 1] - 0.3 * x[:, 2] + 0.8 * torch.randn(N)
y = torch.bucketize(score, torch.tensor([-1.2, -0.4, 0.4, 1.2]))
xtr, ytr, xva, yva = x[:2400], y[:2400], x[2400:], y[2400:]
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, K))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def soft_targets(idx, eps=0.6):
    # one-hot grade with eps spread over the neighbouring grades
    t = torch.zeros(len(idx), K)
    t[torch.arange(len(idx)), idx] = 1.0
    for s in (-1, 1):
        nb = idx + s
        ok = (nb >= 0) & (nb < K)
        t[torch.arange(len(idx))[ok], nb[ok]] += eps
    return t / t.sum(1, keepdim=True)


for epoch in range(15):
    perm = torch.randperm(len(xtr))
    for i in range(0, len(perm), 50):
        idx = perm[i : i + 50]
        logp = F.log_softmax(model(xtr[idx]), dim=1)
        loss = -(soft_targets(ytr[idx]) * logp).sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        v = F.nll_loss(F.log_softmax(model(xva), 1), yva).item()
    print(f"epoch {epoch} train {loss.item():.4f} val_nll {v:.4f}")
with torch.no_grad():
    print(f"val_acc={(model(xva).argmax(1) == yva).float().mean().item():.4f}")
"""


def test_soft_targets_with_a_floor_are_no_capacity_defect(tmp_path):
    report = planner_report(tmp_path, SCRIPT)
    assert [f.category for f in report.findings if f.status == "confirmed"] == []
    capacity = [i for s in report.stages for i in s.checklist if i.id == "capacity"]
    assert capacity and capacity[0].outcome == "passed"
