"""Inputs and labels cut to the shorter one's length and paired by position (round 29
case03: features of complete days only beside a label for every calendar day): a static
suspicion at the cut, for the run's pairing test to decide. Arrays cut to another length,
or one array cut alone, are not paired this way."""

from __future__ import annotations

from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.truncated_pairs import truncated_pairs
from torch_investigate.tools.code.index import CodeIndex

SCRIPT = """import numpy as np


def main(logs):
    feats = featurize(logs)
    labels = classes(logs)
    n = min(len(feats), len(labels))
    X, y = CUT
    return X, y
"""


def _found(cut: str) -> list[tuple[str, int]]:
    index = CodeIndex.from_sources({"train.py": SCRIPT.replace("CUT", cut)})
    return [(f.file, f.line) for f in truncated_pairs(CheckContext(index, analysis(index)))]


def test_both_arrays_cut_to_the_shorter_length_are_suspected():
    assert _found("feats[:n], labels[:n]") == [("train.py", 7)]
    assert _found("feats[: n], labels[ :n]") == [("train.py", 7)]


def test_other_cuts_are_not():
    assert _found("feats[:n], labels") == []
    assert _found("feats[:100], labels[:100]") == []
    assert _found("feats[n:], labels[n:]") == []
