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
