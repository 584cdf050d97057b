"""A value detached inside the forward that the loss adds as a term (a flow's
log-determinant returned `.detach()`ed) counts in the loss's value while its gradient is
gone: found from the trace and confirmed by the rerun that keeps the graph. A detached
value the loss uses as data (a stop-gradient target) is no term."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report
from test_per_feature_broadcast import FLOW

DETACHED_LOGDET = FLOW.replace(
    "return z, torch.log(torch.abs(1 + psi @ self.u) + 1e-8)",
    "return z, torch.log(torch.abs(1 + psi @ self.u) + 1e-8).detach()",
)

STOP_GRADIENT = """
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2048, 16)
enc = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
pred = nn.Linear(8, 8)
class Siamese(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc, self.pred = enc, pred
    def forward(self, a, b):
        za, zb = self.enc(a), self.enc(b)
        return self.pred(za), zb.detach()          # stop-gradient on the target branch
model = Siamese()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(200):
    i = torch.randint(0, 2048, (64,))
    a = x[i] + 0.1 * torch.randn(64, 16)
    b = x[i] + 0.1 * torch.randn(64, 16)
    p, target = model(a, b)
    loss = -F.cosine_similarity(p, target, dim=1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 40 == 0:
        print(f"step {step} loss {loss.item():.4f}")
"""


def _found(report, category: str) -> list:
    return [f for f in report.findings if f.category == category]


def test_a_detached_log_determinant_added_to_the_loss_is_a_cut_term(tmp_path: Path) -> None:
    found = _found(planner_report(tmp_path, DETACHED_LOGDET), "detached_graph")
    assert found and found[0].status == "confirmed"
    assert (
        found[0].file == "train.py"
        and "cut from the graph at train.py:" in found[0].evidence[0].text
    )


def test_a_stop_gradient_target_is_not_a_cut_term(tmp_path: Path) -> None:
    found = _found(planner_report(tmp_path, STOP_GRADIENT), "detached_graph")
    assert not [
        f for f in found if f.status == "confirmed" or f.detector != "static.detached_graph"
    ]
