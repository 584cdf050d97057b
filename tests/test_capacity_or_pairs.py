"""A model that cannot fit one fixed batch lacks capacity only if its targets belong to
its inputs: when stage 2's pairing test could not run because no reference fit learned
the pool (real pairs fit no better than shuffled ones), misaligned targets look the same,
and capacity stays a suspicion that says so."""

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


def test_capacity_is_not_confirmed_while_the_pairs_are_untested_for_the_same_reason(
    tmp_path: Path,
) -> None:
    report = planner_report(tmp_path, MISALIGNED_SMALL_MODEL)
    found = [f for f in report.findings if f.category == "insufficient_capacity"]
    assert not [f for f in found if f.status == "confirmed"]
    assert found and "the pairs are untested for the same reason" in found[0].evidence[0].text
