"""Ticket texts reordered (shortest first) while their labels keep their order: the
pairing test's reference fits overfit their pool of eight batches with real and with
shuffled pairs alike, so both make the unseen batch's loss worse. That alone cannot tell
(a task needing more data looks the same); with the program's own evaluation accuracy at
the majority share, and the real pairs never ahead of the shuffled ones at any point of
the fit, the pairs are misaligned. The DataLoader's held-out batch is never trained on:
one update on it made the real pairs look like they transfer."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.manual_seed(0)
rng = np.random.default_rng(0)
def tickets(n, seed):
    r = np.random.default_rng(seed)
    y = r.integers(0, 6, n)
    words = r.integers(0, 2048, (n, 12))
    words[:, :4] = y[:, None] * 300 + r.integers(0, 40, (n, 4))   # topic words
    lengths = r.integers(4, 13, n)
    X = np.zeros((n, 2048), np.float32)
    for i in range(n):
        X[i, words[i, : lengths[i]]] = 1.0
    return X, y
Xt, yt = tickets(1600, 1)
Xv, yv = tickets(1500, 2)
ORDER
loader = DataLoader(TensorDataset(torch.tensor(Xt), torch.tensor(yt)), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(2048, 128), nn.ReLU(), nn.Linear(128, 6))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
lossf = nn.CrossEntropyLoss()
for epoch in range(8):
    for xb, yb in loader:
        opt.zero_grad()
        loss = lossf(model(xb), yb)
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(torch.tensor(Xv)).argmax(1) == torch.tensor(yv)).float().mean().item()
    model.train()
    print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.3f}")
"""

MISALIGNED = SCRIPT.replace(
    "ORDER", "Xt = Xt[np.argsort(Xt.sum(1), kind='stable')]   # shortest tickets first"
)
ALIGNED = SCRIPT.replace(
    "ORDER", "keep = np.argsort(Xt.sum(1), kind='stable')\nXt, yt = Xt[keep], yt[keep]"
)


def _pairing(report):
    return next(i for s in report.stages for i in s.checklist if i.id == "pairing")


def test_tickets_sorted_apart_from_their_labels_are_misaligned(tmp_path):
    report = planner_report(tmp_path, MISALIGNED)
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["label_misaligned"], _pairing(report).detail
    assert found[0].line == 21  # the reordering
    assert "evaluation accuracy" in _pairing(report).detail


def test_tickets_sorted_with_their_labels_pass(tmp_path):
    report = planner_report(tmp_path, ALIGNED)
    assert _pairing(report).outcome == "passed", _pairing(report).detail
    assert not [f for f in report.findings if f.status == "confirmed"]
