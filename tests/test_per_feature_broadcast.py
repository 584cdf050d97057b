"""A per-feature vector times a per-sample column (`u * s.unsqueeze(1)`, a planar flow's
update) is broadcasting's ordinary use, not a shape mismatch; a prediction column against
one target per sample still is."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

FLOW = """
import math
import torch
from torch import nn
torch.manual_seed(0)

class Planar(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.u = nn.Parameter(torch.randn(d) * 0.1)
        self.w = nn.Parameter(torch.randn(d) * 0.1)
        self.b = nn.Parameter(torch.zeros(1))
    def forward(self, x):
        lin = x @ self.w + self.b
        z = x + self.u * torch.tanh(lin).unsqueeze(1)
        psi = (1 - torch.tanh(lin) ** 2).unsqueeze(1) * self.w
        return z, torch.log(torch.abs(1 + psi @ self.u) + 1e-8)

class Flow(nn.Module):
    def __init__(self, d=2, n=6):
        super().__init__()
        self.layers = nn.ModuleList([Planar(d) for _ in range(n)])
    def forward(self, x):
        ld = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, l = layer(x)
            ld = ld + l
        return x, ld

def sample(n):
    a = torch.randn(n, 2)
    return torch.stack([a[:, 0], a[:, 1] + 0.5 * a[:, 0] ** 2], 1)

model = Flow()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(300):
    x = sample(256)
    z, ld = model(x)
    logp = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi) + ld
    loss = -logp.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""

MISMATCH = """
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(1024, 6)
y = x @ torch.randn(6) + 0.1 * torch.randn(1024)
model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(200):
    i = torch.randint(0, 1024, (64,))
    pred = model(x[i])                        # [64, 1]
    loss = ((pred - y[i]) ** 2).mean()        # against [64]: a [64, 64] table
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 40 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""


def _confirmed(report, category: str) -> list:
    return [f for f in report.findings if f.category == category and f.status == "confirmed"]


def test_a_per_feature_vector_times_a_per_sample_column_is_no_mismatch(tmp_path: Path) -> None:
    assert not _confirmed(planner_report(tmp_path, FLOW), "broadcast_mismatch")


def test_a_prediction_column_against_per_sample_targets_still_is(tmp_path: Path) -> None:
    assert _confirmed(planner_report(tmp_path, MISMATCH), "broadcast_mismatch")


GATED = """
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(2048, 6)

class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(6) * 0.1)
        self.enc = nn.Linear(6, 6)
    def forward(self, x):
        h = self.enc(x)
        g = torch.sigmoid(h[:, :1]) * self.w     # one gate per row times a vector: [B, 6]
        return h + g

model = Gate()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(200):
    xb = x[torch.randint(0, 2048, (64,))]
    loss = (model(xb) - xb).pow(2).mean() + 1e-3 * model.w.pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 40 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""


def test_an_outer_product_inside_the_model_that_reshaping_the_loss_cannot_change_is_no_proof(
    tmp_path: Path,
) -> None:
    report = planner_report(tmp_path, GATED)
    assert not _confirmed(report, "broadcast_mismatch")
