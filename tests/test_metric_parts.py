"""A metric helper that returns several values at once (round 22's pen-user identifier:
`top1, top3 = topk_accuracy(model(xva), yva, topk=(1, 3))`). The baseline probes each
returned value with a perfect prediction built from the target: a top-k accuracy that
slices the sample axis (`correct[:k]`, the first k rows) instead of the rank axis
(`correct[:, :k]`) scores a perfect prediction k / rows, not 1 -> metric_bug at the
helper. With 2000 evaluation rows a perfect and a wrong prediction differ by one row's
worth (0.0005) only, which still tells them apart. The right slice, and a top-k accuracy
computed on a subset of the rows (the users the model was trained on, the first rows of
the evaluation set), give the perfect prediction 1."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
CLASSES, KNOWN = 10, 8
centres = 2.0 * torch.randn(CLASSES, 16)


def sample(n):
    y = torch.randint(0, CLASSES, (n,))
    return centres[y] + torch.randn(n, 16), y


def topk_accuracy(logits, target, topk=(1,)):
    _, pred = logits.topk(max(topk), dim=1)          # (B, maxk)
    correct = pred.eq(target.view(-1, 1))            # (B, maxk)
    ROWS
    return [CORRECT.float().sum().item() / len(correct) for k in topk]


xtr, ytr = sample(3000)
xva, yva = sample(2000)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(5):
    model.train()
    perm = torch.randperm(len(xtr))
    for s in range(0, len(xtr), 100):
        idx = perm[s:s + 100]
        loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        out = model(xva)
        top1, top3 = topk_accuracy(out, yva, topk=(1, 3))
        first1, first3 = topk_accuracy(out[:500], yva[:500], topk=(1, 3))
    print(f"epoch {epoch} loss {loss.item():.3f} top1 {top1:.3f} top3 {top3:.3f} first500 {first1:.3f}")
print(f"val_top1={top1:.4f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def _script(rows: str, correct: str) -> str:
    return SCRIPT.replace("ROWS", rows).replace("CORRECT", correct)


def test_a_top_k_that_slices_the_samples_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, _script("pass", "correct[:k]"))
    assert _confirmed(report) == [("metric_bug", "topk_accuracy")]


def test_a_top_k_that_slices_the_ranks_is_healthy(tmp_path):
    report = planner_report(tmp_path, _script("pass", "correct[:, :k]"))
    assert _confirmed(report) == []


def test_a_top_k_over_the_known_users_only_is_healthy(tmp_path):
    """The metric is computed on a subset of the rows on purpose (the users the model may
    name); the perfect prediction still scores 1 there."""
    rows = "correct = correct[target < KNOWN]"
    report = planner_report(tmp_path, _script(rows, "correct[:, :k]"))
    assert _confirmed(report) == []


RATE = """import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(3000, 8)
y = (x[:, 0] + 0.5 * x[:, 1] > 0.6).long()


def scores(logits, target):
    pred = logits.argmax(1)
    accuracy = (pred == target).float().mean().item()
    flagged = pred.float().mean().item()  # share of rows the model flags
    return accuracy, flagged


model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(5):
    model.train()
    for idx in torch.randperm(2400).split(100):
        loss = F.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc, flagged = scores(model(x[2400:]), y[2400:])
    print(f"epoch {epoch} val_acc {acc:.3f} flagged {flagged:.3f}")
print(f"val_acc={acc:.4f}")
"""


def test_a_rate_returned_beside_the_accuracy_is_no_score(tmp_path):
    """The share of flagged rows is in [0, 1] and a perfect prediction gives the label
    rate, not 1, but a perfectly wrong one does not land on an end either: a rate, not a
    broken score."""
    report = planner_report(tmp_path, RATE)
    assert _confirmed(report) == []
