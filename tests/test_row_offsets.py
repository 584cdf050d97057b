"""Evaluation rows that keep offsets the training rows had removed (round 13's sleep
stages: each training night standardized on its own, validation nights by the pooled
statistics). Both phases are centred overall, so the per-feature moments agree; what
differs is how much of the spread lies between rows. Giving each evaluation row the
training rows' mean and spread repairs the program's own accuracy: confirmed. The same
per-night standardization on both sides is healthy, and so is a split whose recordings
differ by offsets on both sides."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
rng = np.random.default_rng(0)
t = np.linspace(0, 1, 64)
def night(n):
    offset, gain = rng.normal(0, 3.0), rng.uniform(0.5, 3.0)
    ys = rng.integers(0, 3, n)
    xs = [np.sin(2 * np.pi * (3 + 4 * y) * t + rng.uniform(0, 6)) + 0.3 * rng.normal(size=64) for y in ys]
    return gain * np.stack(xs) + offset, ys
nights = [night(60) for _ in range(30)]
def prepare(group, stats=None):
    xs = []
    for x, _ in group:
        mean, std = stats if stats is not None else (x.mean(), x.std())
        xs.append((x - mean) / std)
    x = torch.tensor(np.concatenate(xs), dtype=torch.float32)
    return x, torch.tensor(np.concatenate([y for _, y in group]))
train, val = nights[:24], nights[24:]
pooled = np.concatenate([x for x, _ in val])
xtr, ytr = prepare(train)
xva, yva = prepare(val, VAL_STATS)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True)
for epoch in range(6):
    model.train()
    for xb, yb in loader:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(xva).argmax(1) == yva).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.3f} val acc {acc:.3f}")
"""


def _confirmed(report):
    return [(f.category, f.symbol) for f in report.findings if f.status == "confirmed"]


@pytest.mark.slow
def test_nights_standardized_in_training_only_are_a_preprocessing_mismatch(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("VAL_STATS", "(pooled.mean(), pooled.std())"))
    assert _confirmed(report) == [("preprocessing_mismatch", "prepare")]


@pytest.mark.slow
def test_nights_standardized_on_both_sides_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("VAL_STATS", "None"))
    assert _confirmed(report) == []


def test_offsets_on_both_sides_are_healthy(tmp_path):
    # no standardization at all: every night keeps its offset, in training and validation
    script = SCRIPT.replace("(x - mean) / std", "x").replace("VAL_STATS", "None")
    report = planner_report(tmp_path, script)
    assert _confirmed(report) == []


@pytest.mark.slow
def test_an_evaluation_the_tracer_cannot_read_is_judged_by_the_training_loss(tmp_path):
    # validation through its own DataLoader, scored in numpy: the investigator applies the
    # training loss to the validation batches itself
    script = (
        SCRIPT.replace("VAL_STATS", "(pooled.mean(), pooled.std())")
        .replace(
            "        acc = (model(xva).argmax(1) == yva).float().mean().item()",
            "        preds = [model(xb).argmax(1).numpy() for xb, _ in val_loader]\n"
            "        acc = float((np.concatenate(preds) == yva.numpy()).mean())",
        )
        .replace(
            "for epoch in range(6):",
            "val_loader = DataLoader(TensorDataset(xva, yva), batch_size=256)\n"
            "for epoch in range(6):",
        )
    )
    report = planner_report(tmp_path, script)
    assert [c for c, _ in _confirmed(report)] == ["preprocessing_mismatch"]
    text = " ".join(e.text for f in report.findings for e in f.evidence)
    assert "computed by the investigator" in text


def test_a_gain_an_evaluation_close_to_perfect_already_had_is_no_mismatch(monkeypatch):
    """Giving every evaluation row one mean and spread can suit the data itself (a kNN
    over inputs whose gain varies row by row, a self-supervised model trained on
    gain-jittered views): an evaluation that already follows training is left alone,
    one that lost a real part of the way to chance is not."""
    from torch_investigate.agent.checks import row_offsets
    from torch_investigate.agent.checks.pairing_fresh import OwnAccuracy

    acc = OwnAccuracy(passes=4, best=0.976, majority=0.1, se=0.01, learns=True, stays=False)
    monkeypatch.setattr(row_offsets, "own_accuracy", lambda t: acc)
    measure = "evaluation error rate (1 - the accuracy its own comparisons count)"

    def kept(base: float, moved: float) -> str | None:
        values = {"eval_as_written": base, "eval_aligned": moved, "measure": measure}
        return row_offsets._kept_from_chance(None, values)  # type: ignore[arg-type]

    assert kept(0.024, 0.004) is not None  # 2% of the way back from chance
    assert kept(0.5, 0.05) is None  # half the way: the mismatch cost the evaluation
    assert kept(0.2, 0.05) is None
    values = {"eval_as_written": 0.024, "eval_aligned": 0.004, "measure": "evaluation loss"}
    assert row_offsets._kept_from_chance(None, values) is None  # type: ignore[arg-type]


NUMPY_SCORE = SCRIPT.replace(
    "        acc = (model(xva).argmax(1) == yva).float().mean().item()",
    "        acc = agreement(model(xva).argmax(1).numpy(), yva.numpy())",
).replace(
    "train, val = nights[:24], nights[24:]",
    "def agreement(labels, truth):\n    return float((labels == truth).mean())\n"
    "train, val = nights[:24], nights[24:]",
)


def test_a_mismatch_scored_in_numpy_is_read_through_the_programs_own_metric(tmp_path):
    """The program's accuracy is computed in numpy from predicted labels: the helper is
    probed with the true labels (its perfect score) in every run, so the aligned run's
    evaluation is read as the metric's distance from that score."""
    script = NUMPY_SCORE.replace("VAL_STATS", "(pooled.mean(), pooled.std())")
    assert "agreement(model(xva)" in script
    report = planner_report(tmp_path, script)
    assert _confirmed(report) == [("preprocessing_mismatch", "prepare")]
    (found,) = [f for f in report.findings if f.category == "preprocessing_mismatch"]
    moved = [o for o in found.evidence if o.source == "intervention"]
    assert "perfect prediction" in moved[0].values["measure"]


def test_integer_labels_predicted_are_probed_with_the_true_labels():
    import torch

    from torch_investigate.tools.trace.metric_probe import _answers

    target = torch.tensor([0, 2, 1, 2])
    perfect, wrong = _answers(torch.tensor([0, 0, 1, 1]), target)
    assert perfect.tolist() == [0, 2, 1, 2] and all(wrong != target)
    assert _answers(torch.tensor([0, 1]), target) is None  # not one label per row
