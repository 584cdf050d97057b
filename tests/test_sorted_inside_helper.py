"""A helper that orders the rows it builds by a key of its own (`by_key = {r["key"]: r
for r in items}`, then `sorted(by_key)`) beside another that builds the labels from the
same collection as given: one collection walked in two orders, though neither helper
names it the same way. Found by the data flow (the mapping is a copy of the parameter
in its order), confirmed only when, in a copy, the rows built in the collection's order
make the pairs transfer to an unseen batch."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.checks import run_static_checks

SCRIPT = """import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
centres = rng.normal(size=(5, 31)) * 1.5
recs, used = [], set()
for c in range(5):  # stored grouped by class
    for _ in range(240):
        k = int(rng.integers(10000, 99999))
        while k in used:
            k = int(rng.integers(10000, 99999))
        used.add(k)
        x = np.append(centres[c] + rng.normal(size=31), 3 * (k - 10000) / 90000)  # the key, read
        recs.append({"key": f"K{k}", "x": x.astype(np.float32), "c": c})


def table(items):
    by_key = {r["key"]: r for r in items}
    keys = sorted(by_key)
    return np.stack([by_key[k]["x"] for k in keys]), keys


def classes(items):
    return np.array([r["c"] for r in WALKED], dtype=np.int64)


def main():
    torch.manual_seed(0)
    SOURCE
    x, keys = table(given)
    y = LABELS
    perm = np.random.default_rng(1).permutation(len(x))
    va, tr = perm[:200], perm[200:]
    loader = DataLoader(
        TensorDataset(torch.from_numpy(x[tr]), torch.from_numpy(y[tr])), batch_size=64, shuffle=True
    )
    xv, yv = torch.from_numpy(x[va]), torch.from_numpy(y[va])
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 5))
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


main()
"""
AS_GIVEN = "items"
BUGGY = {"WALKED": AS_GIVEN, "SOURCE": "given = recs", "LABELS": "classes(given)"}
# healthy: both helpers given the records already sorted by key (the inner sort keeps it)
PRESORTED = {**BUGGY, "SOURCE": 'given = sorted(recs, key=lambda r: r["key"])'}
# healthy: the labels sorted by the same key in their own helper
BOTH_SORTED = {**BUGGY, "WALKED": 'sorted(items, key=lambda r: r["key"])'}
# healthy: the labels looked up by the keys the rows came in
BY_KEYS = {
    **BUGGY,
    "LABELS": 'np.array([{r["key"]: r["c"] for r in recs}[k] for k in keys], dtype=np.int64)',
}


def _script(parts: dict[str, str]) -> str:
    src = SCRIPT
    for k, v in parts.items():
        src = src.replace(k, v)
    return src


def _found(parts: dict[str, str]) -> list:
    index = CodeIndex.from_sources({"train.py": _script(parts)})
    return list(run_static_checks(index, only=["walk_orders"], strict=True))


def test_a_helper_sorting_a_keyed_copy_of_its_argument_is_a_walk_of_that_argument() -> None:
    (f,) = _found(BUGGY)
    assert (f.file, f.line, f.symbol) == ("train.py", 21, "table"), f
    assert "`items` in `sorted()` order" in f.evidence[1].text, f.evidence


def test_labels_sorted_alike_or_looked_up_by_the_keys_are_not_paired_in_two_orders() -> None:
    assert not [f for f in _found(BY_KEYS)]
    # two sorts by different spellings of one key: a suspicion at most, with no edit to run
    assert all(f.status == "plausible" for f in _found(BOTH_SORTED))


def test_rows_sorted_inside_a_helper_beside_labels_as_given_are_confirmed(tmp_path: Path):
    report = planner_report(tmp_path, _script(BUGGY))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["label_misaligned"], report.findings
    assert (found[0].file, found[0].symbol) == ("train.py", "table"), found[0]
    ran = [o for o in found[0].evidence if o.source == "intervention"]
    assert ran and "walks in one order" in ran[0].text


def test_both_helpers_given_the_sorted_records_gives_the_same_pairs(tmp_path: Path):
    """The suspicion stands (the code cannot know the records come sorted), the edit
    changes nothing, and nothing is confirmed."""
    report = planner_report(tmp_path, _script(PRESORTED))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


def test_labels_sorted_by_the_same_key_are_not_confirmed(tmp_path: Path):
    report = planner_report(tmp_path, _script(BOTH_SORTED))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
