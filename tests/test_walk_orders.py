"""Two arrays the code pairs row by row, built by walking one collection in two orders
(`sorted(groups)` for the features, `groups.items()` for the labels): found statically by
the data flow (neutral names throughout), and confirmed only when walking both in one
order, in a copy, makes the pairs transfer to an unseen batch."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import planner_report

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.checks import run_static_checks

HELPERS = """import numpy as np
import torch
from torch.utils.data import TensorDataset


def f1(m):
    return np.concatenate([m[k][0] for k in sorted(m)])


def f2(m):
    out = []
    for k, v in WALK:
        out.append(v[1])
    return np.concatenate(out)


def make(m):
    a = torch.from_numpy(f1(m))
    b = torch.from_numpy(f2(m))
    return TensorDataset(a, b)
"""


def _found(src: str) -> list:
    index = CodeIndex.from_sources({"m.py": src})
    return [f for f in run_static_checks(index, only=["walk_orders"], strict=True)]


def test_two_helpers_walking_one_mapping_in_two_orders_are_found() -> None:
    (f,) = _found(HELPERS.replace("WALK", "m.items()"))
    assert f.category == "label_misaligned" and f.status == "plausible"
    assert (f.file, f.line, f.symbol) == ("m.py", 12, "f2")
    assert "sorted" in f.evidence[0].text


def test_the_same_order_twice_is_not_a_suspicion() -> None:
    assert not _found(HELPERS.replace("WALK", "sorted(m.items())"))


def test_arrays_the_code_does_not_line_up_are_not_a_suspicion() -> None:
    src = HELPERS.replace("WALK", "m.items()").replace(
        "    return TensorDataset(a, b)", "    return a, len(b)"
    )
    assert not _found(src)


def test_two_walks_in_one_function_are_found_at_the_unsorted_one() -> None:
    src = """import torch


def build(m):
    v1, v2 = [], []
    for k in m:
        v2.append(m[k][1])
    for k in sorted(m):
        v1.append(m[k][0])
    return torch.utils.data.TensorDataset(torch.stack(v1), torch.stack(v2))
"""
    (f,) = _found(src)
    assert f.line == 6


def test_a_sorted_copy_of_a_list_walked_for_one_array_is_found_at_the_sort() -> None:
    src = """import numpy as np
import torch


def rows(recs):
    ordered = sorted(recs, key=lambda r: r["site"])
    out = np.zeros((len(recs), 3), dtype=np.float32)
    for i, r in enumerate(ordered):
        out[i] = r["x"]
    return out


def marks(recs):
    return np.array([r["y"] for r in recs])


def make(recs):
    return torch.utils.data.TensorDataset(torch.from_numpy(rows(recs)), torch.from_numpy(marks(recs)))
"""
    (f,) = _found(src)
    assert (f.line, f.symbol) == (6, "rows")
    assert not _found(src.replace('sorted(recs, key=lambda r: r["site"])', "list(recs)"))


SORTING_HELPER = """import numpy as np
import torch


def by_size(items):
    return sorted(items, key=len)


def stack(items):
    return np.stack([np.resize(np.asarray(t, dtype=np.float32), 16) for t in by_size(items)])


def make(recs):
    x = torch.from_numpy(stack([r.trace for r in recs]))
    y = torch.tensor(LABELS)
    return torch.utils.data.TensorDataset(x, y)
"""


def test_a_helper_that_sorts_what_it_is_given_beside_labels_in_the_given_order_is_found() -> None:
    (f,) = _found(SORTING_HELPER.replace("LABELS", "[r.who for r in recs]"))
    assert (f.line, f.symbol) == (10, "stack")
    # the labels taken through the same sort: one order
    assert not _found(
        SORTING_HELPER.replace("LABELS", "[len(t) for t in by_size([r.trace for r in recs])]")
    )


SCRIPT = """import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
shared = rng.normal(size=400).astype(np.float32)  # one value per row index, every group
w = rng.normal(size=5)
groups = {}
for name in ORDER:
    x = rng.normal(size=(400, 5)).astype(np.float32)
    y = (x @ w + shared > 0).astype(np.int64)
    groups[name] = (np.column_stack([shared, x]).astype(np.float32), y)


def table(m, part):
    return np.concatenate([m[k][0][part] for k in sorted(m)])


def labels(m, part):
    out = []
    for k, v in m.items():
        out.append(v[1][part])
    return np.concatenate(out)


torch.manual_seed(0)
fit, held = slice(0, 320), slice(320, 400)
loader = DataLoader(
    TensorDataset(torch.from_numpy(table(groups, fit)), torch.from_numpy(labels(groups, fit))),
    batch_size=64,
    shuffle=True,
)
xv, yv = torch.from_numpy(table(groups, held)), torch.from_numpy(labels(groups, held))
model = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(8):
    for xb, yb in loader:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    print(f"epoch {epoch} val_acc={acc:.3f}")
"""


def test_labels_walked_in_another_order_are_confirmed_by_walking_them_in_one(tmp_path: Path):
    order = '["g7", "g2", "g9", "g4", "g1", "g8", "g3", "g6", "g5", "g0"]'
    report = planner_report(tmp_path, SCRIPT.replace("ORDER", order))
    found = [f for f in report.findings if f.category == "label_misaligned"]
    assert found and found[0].status == "confirmed", report.findings
    assert (found[0].file, found[0].line) == ("train.py", 22)
    ran = [o for o in found[0].evidence if o.source == "intervention"]
    assert ran and "walks in one order" in ran[0].text
    assert not [f for f in report.findings if f.status == "confirmed" and f is not found[0]]


@pytest.mark.slow
def test_a_mapping_filled_in_sorted_order_gives_the_same_pairs(tmp_path: Path):
    """The static suspicion stands (the code cannot know the filling order), the edit
    changes nothing, and nothing is confirmed."""
    order = '["g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9"]'
    report = planner_report(tmp_path, SCRIPT.replace("ORDER", order))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


KEPT = """import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
protos = rng.normal(size=(6, 10)) * 2
store, log = {}, []
for i in range(1200):
    label = int(rng.integers(0, 6))
    rid = f"r{i:04d}"
    store[rid] = (protos[label] + rng.normal(size=10)).astype(np.float32)
    log.append((rid, label))
LOG_ORDER
notes = dict(log)


def rows(store, ids):
    return np.stack([store[r] for r in ids])


def answers(notes, ids):
    wanted = set(ids)
    return np.array(KEEP, dtype=np.int64)


ids = sorted(store)
fit, held = ids[:1000], ids[1000:]
loader = DataLoader(
    TensorDataset(torch.from_numpy(rows(store, fit)), torch.from_numpy(answers(notes, fit))),
    batch_size=50,
    shuffle=True,
)
xv, yv = torch.from_numpy(rows(store, held)), torch.from_numpy(answers(notes, held))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 6))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(6):
    for xb, yb in loader:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    print(f"epoch {epoch} val_acc={acc:.3f}")
"""
FILTERED = "[lab for rid, lab in notes.items() if rid in wanted]"
BY_LABEL = "log.sort(key=lambda item: item[1])  # reviewed label by label"


def test_a_mapping_kept_to_the_members_of_a_list_is_a_walk_in_the_mapping_s_order() -> None:
    """`[v for k, v in m.items() if k in set(ids)]` beside `[store[r] for r in ids]`."""
    src = KEPT.replace("LOG_ORDER", BY_LABEL).replace("KEEP", FILTERED)
    (f,) = _found(src)
    assert (f.file, f.line, f.symbol) == ("m.py", 24, "answers"), f
    looked_up = KEPT.replace("LOG_ORDER", BY_LABEL).replace("KEEP", "[notes[r] for r in ids]")
    assert not _found(looked_up)


def test_labels_kept_in_the_log_s_order_are_confirmed_by_walking_the_ids(tmp_path: Path):
    """The log is grouped by label, the rows by id: each row gets another's label."""
    report = planner_report(tmp_path, KEPT.replace("LOG_ORDER", BY_LABEL).replace("KEEP", FILTERED))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["label_misaligned"], report.findings
    assert found[0].symbol == "answers", found[0]


def test_a_log_kept_in_the_ids_order_gives_the_same_pairs(tmp_path: Path):
    """The log was written in id order: kept to the members, it is already in the ids'
    order; the edit changes nothing and nothing is confirmed."""
    report = planner_report(tmp_path, KEPT.replace("LOG_ORDER", "").replace("KEEP", FILTERED))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
