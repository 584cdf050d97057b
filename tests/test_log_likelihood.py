"""A log-likelihood minimized as it is (round 07's pairwise reward model): the loss adds
the mean log-probability of the preferred answer with a plus sign, so training makes the
data less likely and the loss runs far below zero, slowed only by weight decay. The same
program with the likelihood negated, and one whose loss weighs log-probabilities by an
advantage (a policy gradient), are not that defect."""

from __future__ import annotations

import torch
from conftest import planner_report

from torch_investigate.tools.trace.ops import log_prob_made

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
feats = torch.randn(2048, 8)
w_true = torch.randn(8)
score = feats @ w_true
left, right = feats[0::2], feats[1::2]
prefer_left = score[0::2] > score[1::2]
chosen = torch.where(prefer_left[:, None], left, right)
rejected = torch.where(prefer_left[:, None], right, left)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)


def log_likelihood(r_c, r_r):
    return F.logsigmoid(r_c - r_r).mean()


for epoch in range(12):
    for i in range(0, 1024, 64):
        r_c = model(chosen[i : i + 64]).squeeze(-1)
        r_r = model(rejected[i : i + 64]).squeeze(-1)
        reg = 1e-4 * sum(p.pow(2).sum() for p in model.parameters())
        loss = SIGN log_likelihood(r_c, r_r) + reg
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss={loss.item():.4f}")
"""


def test_a_log_likelihood_added_with_a_plus_sign_is_an_objective_without_minimum(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SIGN ", ""))
    root = report.finding(report.root_cause)
    assert root is not None and root.category == "objective_unbounded", report.findings
    assert root.status == "confirmed" and root.location.line == 26
    assert "log-probability" in root.evidence[0].text


def test_the_negated_log_likelihood_is_no_finding(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("SIGN ", "-"))
    assert not [f for f in report.findings if f.category == "objective_unbounded"]
    assert report.root_cause is None, report.findings


def test_what_stays_a_log_probability():
    logits = torch.randn(4, 3, requires_grad=True)
    logp = torch.log_softmax(logits, dim=-1)
    log_prob_made("log_softmax", (logits,), logp)
    picked = logp.gather(1, torch.zeros(4, 1, dtype=torch.long))
    log_prob_made("gather", (logp,), picked)
    mean = picked.mean()
    log_prob_made("mean", (picked,), mean)
    assert getattr(mean, "_ti_logp", False)
    half = 0.5 * mean
    log_prob_made("__rmul__", (mean, 0.5), half)
    assert getattr(half, "_ti_logp", False)
    negated = -mean
    log_prob_made("__neg__", (mean,), negated)
    advantage = torch.randn(4, 1)
    weighted = picked * advantage
    log_prob_made("__mul__", (picked, advantage), weighted)
    flipped = mean * -1.0
    log_prob_made("__mul__", (mean, -1.0), flipped)
    assert not any(getattr(x, "_ti_logp", False) for x in (negated, weighted, flipped))
