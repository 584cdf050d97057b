"""A broadcast inside a hand-written loss ([B, 1] predictions minus [B] targets) must be
seen even when the data itself was made by a deliberate broadcast (a grid minus centres,
round 14's radar patches): the tag of the operand on the gradient's path wins over the
data's, so the loss is known to come from the [B, B] comparison."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
grid = torch.linspace(-1, 1, 9)
centres = torch.rand(3000) * 2 - 1
x = torch.exp(-((grid[None] - centres[:, None]) ** 2) * 4)   # made by a broadcast, on purpose
y = (x * grid).sum(1) + 0.1 * torch.randn(3000)   # from the data: its tag too
def weighted_mse(pred, target):
    w = 1.0 + 0.5 * target.abs()
    return (w * (pred - target) ** 2).sum() / w.sum()
model = nn.Sequential(nn.Linear(9, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(4):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 100):
        idx = perm[i:i + 100]
        loss = weighted_mse(model(x[idx])SQUEEZE, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def test_a_loss_broadcast_is_found_beside_a_data_broadcast(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SQUEEZE", ""))
    found = [f.category for f in report.findings if f.status == "confirmed"]
    assert found[:1] == ["broadcast_mismatch"]
