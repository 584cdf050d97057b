"""Training rows the program transforms after cutting them from their source (a board's
symmetries permuting its cells, noise added to a batch) are compared with held-out rows
by the rows they were made from. Round 26's value network enumerates every position of a
small board, splits them by `randperm`, and trains on symmetric copies: a symmetric copy
of a training position is another position, often a held-out one, which is no training
sample seen again. Held-out rows that are training rows before the transform are still
leakage, and the noise that hid them from the fed rows no longer does."""

from __future__ import annotations

from pathlib import Path

from conftest import planner_report

PROGRAM = """
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(0)
n_bits = 10
masks = torch.arange(2 ** n_bits)
x = ((masks.unsqueeze(1) >> torch.arange(n_bits)) & 1).float()   # every position
y = (x.sum(1) > n_bits / 2).long()                               # invariant to symmetry
perm = torch.randperm(len(y))
va, tr = perm[:200], perm[200:]
{held_out}
model = nn.Sequential(nn.Linear(n_bits, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(12):
    order = tr[torch.randperm(len(tr))]
    for i in range(0, len(order), 64):
        b = order[i:i + 64]
        xb = x[b][:, torch.randperm(n_bits)]          # a symmetry of the board, per batch
        {noise}
        loss = F.cross_entropy(model(xb), y[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(x[va]).argmax(1) == y[va]).float().mean().item()
    print(f"epoch {{epoch}} loss {{loss.item():.4f}} val_acc={{acc:.4f}}")
"""


def _confirmed(report, category: str):
    return [f for f in report.findings if f.category == category and f.status == "confirmed"]


def test_held_out_positions_equal_to_transformed_training_ones_are_no_leak(tmp_path: Path):
    report = planner_report(tmp_path, PROGRAM.format(held_out="", noise=""))
    assert not _confirmed(report, "split_leakage")
    leakage = next(i for s in report.stages for i in s.checklist if i.id == "leakage")
    assert "only as the program transformed them" in leakage.detail


def test_held_out_rows_that_are_training_rows_before_the_transform_leak(tmp_path: Path):
    program = PROGRAM.format(
        held_out="tr = perm[100:]                                  # half the held-out rows trained",
        noise="xb = xb + 0.01 * torch.randn_like(xb)          # and noise on top",
    )
    report = planner_report(tmp_path, program)
    assert _confirmed(report, "split_leakage")
