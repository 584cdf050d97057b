"""A ranking metric must order the model's scores as it orders the ideal: `argsort(scores)`
(ascending, the default) beside `sort(relevance, descending=True)` ranks the predictions
worst first. Sorting both the same way is healthy."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

SCRIPT = """
import torch
from torch import nn
torch.manual_seed(0)
Q, L, D = 200, 12, 8
X = torch.randn(Q, L, D)
w = torch.randn(D)
rel = ((X @ w) > 0.5).float() + ((X @ w) > 1.5).float()
model = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

def dcg(g):
    return ((2.0 ** g - 1) / torch.log2(torch.arange(2, g.shape[1] + 2).float())).sum(1)

def ndcg(scores, relevance):
    order = torch.argsort(scores, dim=1DESC)
    ranked = torch.gather(relevance, 1, order)
    ideal = torch.sort(relevance, dim=1, descending=True).values
    return (dcg(ranked) / dcg(ideal).clamp_min(1e-9)).mean().item()

for step in range(200):
    i = torch.randint(0, 150, (32,))
    s = model(X[i]).squeeze(-1)
    loss = -(torch.softmax(rel[i], 1) * torch.log_softmax(s, 1)).sum(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    print("ndcg", ndcg(model(X[150:]).squeeze(-1), rel[150:]))
"""


def _metric(report) -> list:
    return [f for f in report.findings if f.category == "metric_bug" and f.status == "confirmed"]


def test_scores_sorted_against_the_ideal_s_order_are_a_metric_bug(tmp_path: Path) -> None:
    found = _metric(planner_report(tmp_path, SCRIPT.replace("DESC", "")))
    assert found and found[0].symbol == "ndcg" and "reverse of the model's" in found[0].evidence[0].text


def test_scores_sorted_as_the_ideal_is_healthy(tmp_path: Path) -> None:
    assert not _metric(planner_report(tmp_path, SCRIPT.replace("DESC", ", descending=True")))
