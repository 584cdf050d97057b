"""The program's own metric given a perfect prediction (round 12's dental Dice: smoothing
only in the denominator scores every correctly empty mask 0). The baseline calls the
evaluation helper once more with the model's output replaced by logits of +-20 built from
the target: the Dice of a perfect prediction is below 1 in every call -> metric_bug at
the helper. The usual Dice (smoothing on both sides) gives it 1, and so does an accuracy
helper."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(2000, 1, 32)
mask = ((x > 1.0).float() * (torch.rand(2000, 1, 1) > 0.4).float())   # 40% empty masks
def dice(logits, target, eps=1e-6):
    pred = (torch.sigmoid(logits) > 0.5).float()
    inter = (pred * target).sum(dim=(1, 2))
    denom = pred.sum(dim=(1, 2)) + target.sum(dim=(1, 2))
    return (DICE).mean()
def accuracy(logits, target):
    return ((logits > 0).float() == target).float().mean()
model = nn.Sequential(nn.Conv1d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv1d(8, 1, 3, padding=1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for i in range(0, 1600, 100):
        loss = nn.functional.binary_cross_entropy_with_logits(model(x[i:i + 100]), mask[i:i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(x[1600:])
        d = dice(out, mask[1600:])
        a = accuracy(out, mask[1600:])
    print(f"epoch {epoch} loss {loss.item():.3f} dice {d.item():.3f} acc {a.item():.3f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


@pytest.mark.slow
def test_a_dice_that_scores_empty_masks_zero_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("DICE", "2 * inter / (denom + eps)"))
    assert _confirmed(report) == [("metric_bug", "dice")]


def test_a_dice_smoothed_on_both_sides_is_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("DICE", "(2 * inter + eps) / (denom + eps)"))
    assert _confirmed(report) == []


AUC = """import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(3000, 6)
y = (x[:, 0] - x[:, 1] + 0.5 * torch.randn(3000) > 0).float()
def auc(scores, labels):
    scores, labels = np.asarray(scores), np.asarray(labels)
    ranks = RANKS + 1
    pos = labels.sum()
    return (ranks[labels == 1].sum() - pos * (pos + 1) / 2) / (pos * (len(labels) - pos))
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for i in range(0, 2400, 100):
        loss = nn.functional.binary_cross_entropy_with_logits(model(x[i:i + 100]).squeeze(1), y[i:i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        p = torch.sigmoid(model(x[2400:]).squeeze(1))
    score = auc(p.numpy(), y[2400:].numpy())
    print(f"epoch {epoch} loss {loss.item():.3f} auc {score:.3f}")
"""


def test_an_auc_in_numpy_that_ranks_by_sorting_indices_is_a_metric_bug(tmp_path):
    """The metric is written in numpy: the probe hands it numpy answers. Sorting indices
    taken for ranks score a perfect prediction about one half."""
    report = planner_report(tmp_path, AUC.replace("RANKS", "np.argsort(scores)"))
    assert _confirmed(report) == [("metric_bug", "auc")]


def test_an_auc_in_numpy_with_true_ranks_is_healthy(tmp_path):
    report = planner_report(tmp_path, AUC.replace("RANKS", "np.argsort(np.argsort(scores))"))
    assert _confirmed(report) == []


F1_HELPERS = """import torch
from torch import nn
def _count(pred, target, p, t):
    return int(((pred == p) & (target == t)).sum())
def confusion(pred, target):
    return _count(pred, target, 1, 1), _count(pred, target, 1, 0), _count(pred, target, 0, 1)
def f1(scores, target):
    tp, fp, fn = confusion(scores > 0, target)
    return 2 * tp / max(2 * tp + fp + fn, 1)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 4), (torch.rand(64) > 0.5).float()
for step in range(5):
    loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(-1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        print(f1(model(x).squeeze(-1), y))
"""


def test_the_metric_the_program_reports_is_probed_before_the_helpers_it_calls():
    """Practice set 01's case07: an F1 helper counting its confusion cells through two
    inner helpers. Files are read in order, so the inner calls came first and filled the
    probe's three places (counts, no metric in [0, 1]) before the program's own F1 call."""
    from torch_investigate.tools.code import CodeIndex
    from torch_investigate.tools.code.analysis import analysis
    from torch_investigate.tools.code.checks.base import CheckContext
    from torch_investigate.tools.code.checks.helper_args import metric_calls

    index = CodeIndex.from_sources({"train.py": F1_HELPERS})
    calls = metric_calls(CheckContext(index, analysis(index)))
    assert [helper.rsplit(":", 1)[1] for _, helper in calls] == ["f1", "confusion", "_count"]
    assert calls[0][0] == "train.py:19:0:1"
