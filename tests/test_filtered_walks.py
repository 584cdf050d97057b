"""Two arrays the code lines up row by row, built from one collection by walks that drop
different elements (the inputs skip the records without a reading, the targets the
records without a score) and cut to the shorter length or zipped (round 25, case14).
Found by the data flow (neutral names), confirmed only when building both arrays from the
elements both walks keep, in a copy, makes the pairs transfer clearly better. Walks that
drop by one test, targets looked up by key, a positional cut of one series and filters
that drop nothing on the data confirm nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import planner_report

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.labels import pairing_of
from torch_investigate.tools.code.checks.walk_filters import FilteredPair, filtered_pairs

LOG = """import math
import random

import numpy as np
import torch
from torch import nn

rng = random.Random(3)
log = []
for t in range(1500):
    phase = math.sin(2 * math.pi * t / 200.0)
    a, b = rng.gauss(0, 1), rng.gauss(0, 1)
    score = 1.5 * a - 1.2 * b + phase + rng.gauss(0, 0.3)
    rec = {"t": t, "a": a, "b": b, "phase": phase, "score": score}
    if rng.random() < GAP_A:
        rec["a"] = None
    if rng.random() < GAP_S:
        rec["score"] = None
    log.append(rec)


def bucket(s):
    return 0 if s < -0.8 else (1 if s < 0.8 else 2)
"""

HELPERS = """

def inputs(recs):
    out = []
    for r in recs:
        if SKIP_INPUT:
            continue
        out.append([r["a"], r["b"], r["phase"]])
    return np.asarray(out, dtype=np.float32)


def targets(recs):
    out = []
    for r in recs:
        if SKIP_TARGET:
            continue
        out.append(bucket(r["score"]))
    return np.asarray(out, dtype=np.int64)


X = inputs(log)
Y = targets(log)
m = min(len(X), len(Y))
X, Y = torch.from_numpy(X[:m]), torch.from_numpy(Y[:m])
"""

TRAIN = """
m = len(X)
split = int(0.8 * m)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 48), nn.ReLU(), nn.Linear(48, 3))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(15):
    order = torch.randperm(split)
    for i in range(0, split, 64):
        idx = order[i:i + 64]
        loss = nn.functional.cross_entropy(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(X[split:]).argmax(1) == Y[split:]).float().mean().item()
    print(f"epoch {epoch} val_acc={acc:.3f}")
"""

APART = ('r["a"] is None', 'r["score"] is None')
BOTH = 'r["a"] is None or r["score"] is None'


def _script(middle: str, gaps: tuple[float, float] = (0.06, 0.05)) -> str:
    head = LOG.replace("GAP_A", str(gaps[0])).replace("GAP_S", str(gaps[1]))
    return head + middle + TRAIN


def _helpers(skip_input: str, skip_target: str) -> str:
    return HELPERS.replace("SKIP_INPUT", skip_input).replace("SKIP_TARGET", skip_target)


def _pairs(src: str) -> list[FilteredPair]:
    index = CodeIndex.from_sources({"train.py": src})
    ctx = CheckContext(index, analysis(index))
    return list(filtered_pairs(ctx, pairing_of(ctx)))


def test_helpers_that_drop_by_different_tests_are_a_candidate_edited_to_one_filter() -> None:
    (p,) = _pairs(_script(_helpers(*APART)))
    assert (p.collection, p.first.line, p.second.line) == ("log", 44, 45)
    edits = p.edits()
    assert edits is not None and [e[2] for e in edits] == ["log", "log"]
    new = edits[0][3]
    assert "inputs([e_])" in new and "targets([e_])" in new
    compile(new, "<edit>", "eval")


def test_helpers_that_drop_by_one_test_are_no_candidate() -> None:
    assert not _pairs(_script(_helpers(BOTH, BOTH)))


def test_arrays_the_code_does_not_line_up_are_no_candidate() -> None:
    src = (
        _script(_helpers(*APART))
        .replace("Y = targets(log)", "Z = targets(log)")
        .replace("m = min(len(X), len(Y))", "print(len(Z))")
        .replace(
            "X, Y = torch.from_numpy(X[:m]), torch.from_numpy(Y[:m])",
            "X, Y = torch.from_numpy(X), torch.zeros(len(X), dtype=torch.long)",
        )
    )
    assert not _pairs(src)


def test_a_window_that_skips_by_position_is_no_candidate() -> None:
    assert not _pairs(_script(AHEAD, gaps=(0.0, 0.0)))


ZIPPED = """

def build(recs):
    xs = [[r["a"], r["b"], r["phase"]] for r in recs if r["a"] is not None]
    ys = [bucket(s["score"]) for s in recs if s["score"] is not None]
    pairs = list(zip(xs, ys))
    return torch.tensor([p[0] for p in pairs]), torch.tensor([p[1] for p in pairs])


X, Y = build(log)
"""


def test_two_comprehensions_zipped_are_edited_with_both_tests_renamed() -> None:
    (p,) = _pairs(_script(ZIPPED))
    edits = p.edits()
    assert edits is not None
    assert edits[0][3] == (
        '[e_ for e_ in recs if (e_["a"] is not None) and (e_["score"] is not None)]'
    )


def test_targets_dropped_by_another_test_are_confirmed_at_the_second_array(tmp_path: Path):
    report = planner_report(tmp_path, _script(_helpers(*APART)))
    found = [f for f in report.findings if f.category == "label_misaligned"]
    assert found and found[0].status == "confirmed", report.findings
    assert (found[0].file, found[0].line) == ("train.py", 45)
    ran = [o for o in found[0].evidence if o.source == "intervention"]
    assert ran and "both walks keep" in ran[0].text
    assert not [f for f in report.findings if f.status == "confirmed" and f is not found[0]]


def test_both_arrays_dropping_by_one_test_are_healthy(tmp_path: Path):
    report = planner_report(tmp_path, _script(_helpers(BOTH, BOTH)))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


@pytest.mark.slow
def test_two_comprehensions_zipped_are_confirmed(tmp_path: Path):
    report = planner_report(tmp_path, _script(ZIPPED))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["label_misaligned"], report.findings


@pytest.mark.slow
def test_filters_that_drop_nothing_on_the_data_give_the_same_pairs(tmp_path: Path):
    """The candidate stands (the code cannot know the data has no gaps), the edit keeps
    every record, and nothing is confirmed."""
    report = planner_report(tmp_path, _script(_helpers(*APART), gaps=(0.0, 0.0)))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


KEYED = """

def inputs(recs):
    out, ids = [], []
    for r in recs:
        if r["a"] is None:
            continue
        out.append([r["a"], r["b"], r["phase"]])
        ids.append(r["t"])
    return np.asarray(out, dtype=np.float32), ids


def classes(recs):
    return {r["t"]: bucket(r["score"]) for r in recs if r["score"] is not None}


feats, ids = inputs(log)
by_id = classes(log)
keep = [k for k, i in enumerate(ids) if i in by_id]
X = torch.from_numpy(feats[keep])
Y = torch.tensor([by_id[ids[k]] for k in keep])
"""


@pytest.mark.slow
def test_targets_looked_up_by_the_kept_inputs_keys_are_healthy(tmp_path: Path):
    assert not _pairs(_script(KEYED))
    report = planner_report(tmp_path, _script(KEYED))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


AHEAD = """

def windows(vals):
    out = []
    for i, v in enumerate(vals):
        if i < 3:
            continue
        out.append([vals[i]["a"], vals[i]["b"], vals[i - 3]["phase"]])
    return np.asarray(out, dtype=np.float32)


def classes(vals):
    out = []
    for r in vals:
        out.append(bucket(r["score"]))
    return np.asarray(out, dtype=np.int64)


X = windows(log)
Y = classes(log)[3:]
n = min(len(X), len(Y))
X, Y = torch.from_numpy(X[:n]), torch.from_numpy(Y[:n])
"""


@pytest.mark.slow
def test_a_positional_cut_of_one_series_is_healthy(tmp_path: Path):
    """Windows that skip the first positions beside targets cut by the same positions:
    one origin, one alignment; whatever the candidates, nothing is confirmed."""
    report = planner_report(tmp_path, _script(AHEAD, gaps=(0.0, 0.0)))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
