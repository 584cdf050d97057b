"""An output activation the targets cannot be reached through, read from the run: a
softmax (every row sums to 1) regressed by a distance onto rows that are no
distributions, whichever argument of the symmetric loss the prediction is passed as."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import planner_report

AUTOENCODER = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = TARGETS
enc = nn.Sequential(nn.Linear(64, 16), nn.ReLU())
dec = nn.Sequential(nn.Linear(16, 64), nn.Softmax(dim=1))
opt = torch.optim.Adam([*enc.parameters(), *dec.parameters()], lr=1e-3)
for epoch in range(3):
    for i in range(0, 1024, 32):
        x = X[i : i + 32]
        x_hat = dec(enc(x))
        loss = F.mse_loss(x, x_hat)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} mse={loss.item():.4f}")
"""


def report_of(tmp_path: Path, targets: str):
    return planner_report(tmp_path, AUTOENCODER.replace("TARGETS", targets))


def test_a_softmax_regressed_onto_pixels_is_an_activation_the_targets_cannot_reach(tmp_path):
    report = report_of(tmp_path, "torch.rand(1024, 64)")
    root = report.finding(report.root_cause)
    assert root is not None and root.category == "activation_misuse", report.findings
    assert (root.status, root.file, root.line) == ("confirmed", "train.py", 8)
    assert "rows sum to 1" in root.evidence[0].text


@pytest.mark.slow  # the healthy sibling of the test above
def test_a_softmax_regressed_onto_distributions_is_fine(tmp_path):
    report = report_of(tmp_path, "torch.softmax(torch.randn(1024, 64), dim=1)")
    assert not [f for f in report.findings if f.category == "activation_misuse"], report.findings
