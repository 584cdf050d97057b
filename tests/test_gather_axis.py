"""Arc scores [B, dependents, heads] normalized over the dependents and picked along the
heads: the loss trains a distribution the prediction (argmax over heads) never reads.
Normalizing over the picked axis learns; a log_softmax over the heads is healthy."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
n, d = 8, 16
tokens = torch.randint(0, 20, (1024, n))
heads = (tokens % n)
emb, dep, head = nn.Embedding(20, d), nn.Linear(d, d), nn.Linear(d, d)
pos = nn.Embedding(n, d)
params = [*emb.parameters(), *dep.parameters(), *head.parameters(), *pos.parameters()]
opt = torch.optim.Adam(params, lr=1e-2)
for epoch in range(6):
    for i in torch.randperm(1024).split(64):
        h = emb(tokens[i]) + pos.weight
        scores = dep(h) @ head(pos.weight).T.unsqueeze(0)
        logp = F.log_softmax(scores, dim=AXIS)
        loss = -logp.gather(2, heads[i].unsqueeze(2)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss={loss.item():.4f}")
"""


def test_log_probabilities_picked_across_their_axis_are_a_wrong_dimension(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("AXIS", "1"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["wrong_dimension"], report.findings
    assert found[0].location.line == 17


def test_log_probabilities_over_the_picked_axis_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("AXIS", "-1"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
