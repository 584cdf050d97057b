"""A model that cannot fit one fixed batch lacks capacity only if its targets belong to
its inputs. When the program's model cannot fit the pairing test's pool, a wide network of
the same inputs stands in for it: real pairs it learns beyond shuffled ones are right (and
the program's model is what cannot fit them); pairs it cannot tell apart leave both
questions open, and capacity is not confirmed."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

MISALIGNED_SMALL_MODEL = """
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
rng = np.random.default_rng(0)
X = rng.normal(size=(4000, 8)).astype(np.float32)
y = ((X[:, 0] + X[:, 1] ** 2) > 1).astype(np.float32)
X = np.unique(X.round(1), axis=0)[: len(y)]      # rows sorted apart from their labels
y = y[: len(X)]
loader = DataLoader(TensorDataset(torch.tensor(X), torch.tensor(y)), batch_size=128, shuffle=True)
model = nn.Linear(8, 1)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
lossf = nn.BCEWithLogitsLoss()
for epoch in range(4):
    for xb, yb in loader:
        loss = lossf(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


XOR_LINEAR = """
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
X = torch.rand(4000, 2) * 2 - 1
y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).float()       # quadrants: no line separates them
loader = DataLoader(TensorDataset(X, y), batch_size=128, shuffle=True)
model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
lossf = nn.BCEWithLogitsLoss()
for epoch in range(4):
    for xb, yb in loader:
        loss = lossf(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def _item(report, name: str):
    return next(i for s in report.stages for i in s.checklist if i.id == name)


def test_capacity_is_not_confirmed_while_the_pairs_cannot_be_told_apart(tmp_path: Path) -> None:
    report = planner_report(tmp_path, MISALIGNED_SMALL_MODEL)
    found = [f for f in report.findings if f.category == "insufficient_capacity"]
    assert not [f for f in found if f.status == "confirmed"]
    assert "a wide network of the same inputs" in _item(report, "pairing").detail


def test_pairs_a_wide_stand_in_learns_leave_the_small_model_s_capacity_confirmed(
    tmp_path: Path,
) -> None:
    report = planner_report(tmp_path, XOR_LINEAR)
    pairing = _item(report, "pairing")
    assert pairing.outcome == "passed" and "stands in for it" in pairing.detail
    found = [f for f in report.findings if f.category == "insufficient_capacity"]
    assert found and found[0].status == "confirmed"


def test_a_run_that_fits_the_full_data_better_than_the_sweep_fits_one_batch_has_capacity() -> None:
    from torch_investigate.agent.checks.fixed_batch import fits_full_data

    # a transformer that needs more steps than the sweep gives it (round 09's bracket model)
    assert fits_full_data(first=0.505, best=0.403, settled=0.14)
    # the run stays high too: the fit says nothing in its favour
    assert not fits_full_data(first=0.69, best=0.68, settled=0.66)
    assert not fits_full_data(first=0.69, best=0.30, settled=0.32)
    assert not fits_full_data(first=0.69, best=0.68, settled=None)
