"""Placing non-finite batch values where the code writes them (agent/checks/nan_places.py)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from torch_investigate.agent.checks.nan_places import nonfinite_origin
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.tracefile.trace import Frame

FEATURES = """import numpy as np


def _num(v):
    return float(v) if v != "" else np.nan


def table(rows):
    sales = np.array([_num(r) for r in rows])
    lag1 = np.concatenate([[np.nan], sales[:-1]])
    return np.column_stack([lag1]), sales


def build(rows):
    feats, target = table(rows)
    keep = ~np.isnan(target)
    return feats[keep], target[keep]
"""

TRAIN = """import math

import torch
from torch.utils.data import DataLoader, TensorDataset

from features import build


def main(rows):
    X, y = build(rows)
    loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=4)
    model = torch.nn.Linear(1, 1)
    for xb, yb in loader:
        loss = ((model(xb) - yb) ** 2).mean()
        if math.isnan(loss.item()):
            continue
        loss.backward()
"""


def session(tmp_path: Path, files: dict[str, str]) -> SimpleNamespace:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return SimpleNamespace(index=CodeIndex.build(tmp_path))


def test_a_row_filter_on_the_way_to_the_input_is_where_missing_features_stay(tmp_path):
    s = session(tmp_path, {"features.py": FEATURES, "train.py": TRAIN})
    loc = nonfinite_origin(s, Frame(file="train.py", line=14))
    assert loc is not None and (loc.file, loc.line, loc.symbol) == ("features.py", 16, "build")


def test_without_a_filter_the_expression_that_writes_nan_is_named(tmp_path):
    features = FEATURES.replace("keep = ~np.isnan(target)", "keep = slice(None)")
    s = session(tmp_path, {"features.py": features, "train.py": TRAIN})
    loc = nonfinite_origin(s, Frame(file="train.py", line=14))
    assert loc is not None and loc.file == "features.py" and loc.line in (5, 10)


def test_a_guard_on_the_loss_is_no_filter_and_data_without_nan_says_nothing(tmp_path):
    features = FEATURES.replace("np.nan", "0.0").replace(
        "keep = ~np.isnan(target)", "keep = slice(None)"
    )
    s = session(tmp_path, {"features.py": features, "train.py": TRAIN})
    assert nonfinite_origin(s, Frame(file="train.py", line=14)) is None
