"""A score that reads another class's column (round 23's bruxism F1: `probs[:, 0] > 0.5`
taken for the positive class 1). The probe hands the helper a one-hot answer in the
model's own layout: the perfect one scores 0 and the perfectly wrong one 1, which an error
rate would do too; the helper's name and the label its value is printed under call it a
score -> metric_bug at the helper. The right column, column 0 when class 0 is the one
scored, an argmax, and an error rate named so stay healthy."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(2400, 8)
y = (x[:, 0] + 0.5 * x[:, 1] > 0.6).long()   # about a quarter positive
def f1_score(logits, y):
    probs = torch.softmax(logits, dim=1)
    pred = PRED
    truth = y == POSITIVE
    tp = (pred & truth).sum().item()
    fp = (pred & ~truth).sum().item()
    fn = (~pred & truth).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for i in range(0, 1800, 100):
        loss = nn.functional.cross_entropy(model(x[i:i + 100]), y[i:i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        f1 = f1_score(model(x[1800:]), y[1800:])
    print(f"epoch {epoch} loss={loss.item():.3f} val_f1={f1:.3f}")
"""

ERROR = """import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(2400, 8)
y = (x[:, 0] + 0.5 * x[:, 1] > 0.6).long()
def error_rate(logits, y):
    return (logits.argmax(dim=1) != y).float().mean().item()
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for i in range(0, 1800, 100):
        loss = nn.functional.cross_entropy(model(x[i:i + 100]), y[i:i + 100])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        err = error_rate(model(x[1800:]), y[1800:])
    print(f"epoch {epoch} loss={loss.item():.3f} val_err={err:.3f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


def _script(pred: str, positive: str) -> str:
    return SCRIPT.replace("PRED", pred).replace("POSITIVE", positive)


@pytest.mark.slow
def test_an_f1_reading_the_other_class_column_is_a_metric_bug(tmp_path):
    report = planner_report(tmp_path, _script("probs[:, 0] > 0.5", "1"))
    assert _confirmed(report) == [("metric_bug", "f1_score")]
    assert next(f for f in report.findings if f.status == "confirmed").file == "train.py"


@pytest.mark.parametrize(
    ("pred", "positive"),
    [
        ("probs[:, 1] > 0.5", "1"),  # the positive class's own column
        ("probs[:, 0] > 0.5", "0"),  # column 0, and class 0 is the one scored
        ("probs.argmax(dim=1) == 1", "1"),  # an argmax over the columns
    ],
)
def test_an_f1_reading_its_own_class_column_is_healthy(tmp_path, pred, positive):
    report = planner_report(tmp_path, _script(pred, positive))
    assert _confirmed(report) == []


def test_an_error_rate_giving_the_perfect_answer_zero_is_healthy(tmp_path):
    report = planner_report(tmp_path, ERROR)
    assert _confirmed(report) == []


def test_the_programs_words_for_a_value_break_the_tie_only_when_they_agree():
    from torch_investigate.agent.checks.metric_direction import printed_labels, sense

    out = "epoch 1 loss=0.4321 val_f1=0.065\nepoch 2 loss=0.3 val_f1=0.013 acc 91.2%\n"
    assert printed_labels(out, [0.0645, 0.0132]) == {"val_f1"}
    assert printed_labels(out, [0.912]) == {"acc"}
    assert printed_labels("val_f1=0.000", [0.0]) == set()  # zero matches too much
    assert sense(["f1_score", "val_f1"]) == 1
    assert sense(["error_rate"]) == -1
    assert sense(["evaluate"]) == 0
    assert sense(["dice_loss"]) == 0  # a score's word and an error's: no direction
