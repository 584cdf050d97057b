"""A prototype or nearest-neighbour classifier must predict the smallest distance:
`cdist(q, protos).topk(1)` keeps the largest, and its indices compared with the labels make
every prediction the farthest class. Farthest-point sampling picks the largest distance
too, but compares its indices with nothing. The program's final evaluation, after the
step budget, is still read."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """
import torch
from torch import nn
torch.manual_seed(0)
X = torch.randn(600, 8)
y = (X[:, 0] > 0).long() + 2 * (X[:, 1] > 0).long()
enc = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16))
model = nn.Sequential(enc, nn.Linear(16, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(300):
    i = torch.randint(0, 600, (64,))
    loss = nn.functional.cross_entropy(model(X[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()

@torch.no_grad()
def evaluate():
    model.eval()
    emb = enc(X)
    protos = torch.stack([emb[y == c].mean(0) for c in range(4)])
    pred = torch.cdist(emb, protos).topk(1, dim=1LARGEST).indices.squeeze(1)
    far = torch.cdist(emb, emb[:50]).max(dim=1).indices      # farthest-point style: no labels
    return (pred == y).float().mean().item(), int(far[0])
print("acc", evaluate())
"""


def _metric(report) -> list:
    return [f for f in report.findings if f.category == "metric_bug" and f.status == "confirmed"]


def test_the_farthest_prototype_compared_with_the_labels_is_a_metric_bug(tmp_path: Path) -> None:
    found = _metric(planner_report(tmp_path, SCRIPT.replace("LARGEST", "")))
    assert found and found[0].line == 22 and "farthest candidate" in found[0].evidence[0].text


def test_the_nearest_prototype_is_healthy(tmp_path: Path) -> None:
    assert not _metric(planner_report(tmp_path, SCRIPT.replace("LARGEST", ", largest=False")))
