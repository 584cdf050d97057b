"""Predictions compared with labels counted from another origin (round 14's roast levels:
decoded 0..4 against jar labels 1..5): the program's `==` matches few, while the same
predictions one value up match far more than the most frequent label would. A model
that is simply poor, or one whose errors fall on a neighbour, matches best as written."""

from __future__ import annotations

import pytest
from conftest import planner_report

from torch_investigate.agent.checks.shifted_labels import shifted_labels
from torch_investigate.tools.tracefile.eval_records import EvalValues
from torch_investigate.tools.tracefile.trace import Trace


def _trace(
    matched: int, up: int, down: int, labels=((1.0, 30), (2.0, 40), (3.0, 30)), before=None
) -> Trace:
    """Two evaluation passes: the one before the last as `before` (matched, up, down),
    by default the last one's."""
    b = before or (matched, up, down)
    return Trace(
        format_version=1,
        status="completed",
        eval_matches=[(5, b[0], 100), (9, matched, 100)],
        eval_shifted=[(5, b[1], b[2], 100), (9, up, down, 100)],
        eval_values=EvalValues(first_labels=list(labels)),
    )


def test_predictions_that_match_one_value_up_are_a_metric_bug():
    found = shifted_labels(_trace(matched=5, up=90, down=3))
    assert found is not None and "one value up" in found[0]


def test_a_shift_seen_in_one_pass_only_is_chance():
    """A head rebuilt at every call lines up with a neighbour in one pass, not the next."""
    assert shifted_labels(_trace(matched=5, up=90, down=3, before=(20, 15, 60))) is None
    assert shifted_labels(_trace(matched=5, up=90, down=3, before=(30, 25, 30))) is None


def test_a_good_or_a_poor_model_matches_best_as_written():
    assert shifted_labels(_trace(matched=70, up=15, down=15)) is None  # off by one at times
    assert shifted_labels(_trace(matched=30, up=35, down=30)) is None  # no better than 40%
    assert shifted_labels(_trace(matched=45, up=50, down=5)) is None  # beats the majority


SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(3000, 6)
level = (x[:, 0] * 1.2 + x[:, 1]).clamp(-1.99, 1.99).add(2).floor().long() + 1   # 1..4
def encode(level):
    return (level[:, None] - 1 > torch.arange(3)[None]).float()
def decode(logits):
    return (logits > 0).sum(1)
model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
xtr, ltr, xva, lva = x[:2400], level[:2400], x[2400:], level[2400:]
for epoch in range(30):
    for i in range(0, 2400, 100):
        loss = nn.functional.binary_cross_entropy_with_logits(model(xtr[i:i + 100]), encode(ltr[i:i + 100]))
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = decode(model(xva))OFFSET
    print(f"epoch {epoch} loss {loss.item():.3f} acc {(pred == lva).float().mean().item():.3f}")
"""


@pytest.mark.slow
def test_levels_decoded_from_zero_against_labels_from_one(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("OFFSET", ""))
    found = [f.category for f in report.findings if f.status == "confirmed"]
    assert found == ["metric_bug"]


@pytest.mark.slow
def test_levels_decoded_to_the_labels_origin_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("OFFSET", " + 1"))
    assert not [f for f in report.findings if f.status == "confirmed"]


def test_a_model_at_chance_matches_no_better_shifted_beyond_chance():
    # 100 labels: a 45% shifted share against a 40% majority is within chance
    assert shifted_labels(_trace(matched=30, up=45, down=30)) is None


def test_classes_mapped_onto_each_other_in_a_cycle_keep_one_range():
    from types import SimpleNamespace

    from torch_investigate.agent.checks.shifted_labels import _offset_ranges

    def trace(labels, preds):
        values = SimpleNamespace(labels=labels, passes=[(100, [(p, 10) for p in preds])])
        return SimpleNamespace(eval_values=values)

    assert _offset_ranges(trace([1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 1.0, 2.0, 3.0, 4.0]), "up")
    assert not _offset_ranges(trace([0.0, 1.0, 2.0], [0.0, 1.0, 2.0]), "up")


MAE_SCRIPT = SCRIPT.replace(
    'print(f"epoch {epoch} loss {loss.item():.3f} acc {(pred == lva).float().mean().item():.3f}")',
    'print(f"epoch {epoch} loss {loss.item():.3f} mae {(pred - lva).abs().float().mean().item():.3f}")',
)


def test_an_ordinal_error_against_labels_from_one_is_a_metric_bug(tmp_path):
    """The same levels scored by their mean absolute error (round 29 case05): the zeros of
    the difference are the predictions that equal their labels, and one value up most do."""
    report = planner_report(tmp_path, MAE_SCRIPT.replace("OFFSET", ""))
    found = [(f.category, f.line) for f in report.findings if f.status == "confirmed"]
    assert found == [("metric_bug", 21)], report.findings


def test_an_ordinal_error_at_the_labels_origin_is_healthy(tmp_path):
    report = planner_report(tmp_path, MAE_SCRIPT.replace("OFFSET", " + 1"))
    assert not [f for f in report.findings if f.status == "confirmed"]
