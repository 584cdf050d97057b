"""A loss written by hand (`((model(x) - y) ** 2).mean()`, round 07's spring-mass
surrogate): the subtraction of the batch's target from the prediction is where the
pairing test holds out, replays and shuffles targets, so a program without a loss
function still gets stage 2's permutation control: the same program with its pairs
intact passes it, targets sorted apart from their inputs do not; an autoencoder, whose
target is its input, is not shuffled against itself. And a fall below the targets'
marginal level within the first pass, the run's own held-out reading, counts only
beyond what the lowest of its many windows reaches by chance."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
x = torch.randn(4096, 6)
y = torch.stack([x[:, 0] * x[:, 1], torch.sin(x[:, 2]) + x[:, 3]], dim=1)
PAIRS
loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)
model = nn.Sequential(nn.Linear(6, 256), nn.ReLU(), nn.Linear(256, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(4):
    for xb, yb in loader:
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss={loss.item():.4f}")
"""


def _pairing(report):
    stage = next(s for s in report.stages if s.stage == 2)
    return next(c for c in stage.checklist if c.id == "pairing")


def test_targets_sorted_apart_from_their_inputs_do_not_pass_it(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PAIRS", "y = y[y[:, 0].argsort()]"))
    pairing = _pairing(report)
    assert "written by hand at train.py:14" in pairing.detail
    assert pairing.outcome != "passed" and report.root_cause is None, report.findings


def test_the_first_pass_falls_below_the_level_only_beyond_chance(tmp_path):
    script = SCRIPT.replace("PAIRS", "y = y[y[:, 0].argsort()]")
    script = script.replace("((model(xb) - yb) ** 2).mean()", "nn.functional.mse_loss(model(xb), yb)")
    report = planner_report(tmp_path, script.replace("batch_size=16", "batch_size=64"))
    assert _pairing(report).outcome != "passed", _pairing(report).detail


def test_intact_pairs_pass_it(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("PAIRS", ""))
    assert _pairing(report).outcome == "passed", _pairing(report).detail
    assert "written by hand at train.py:14" in _pairing(report).detail
    assert report.root_cause is None, report.findings


def test_an_autoencoder_s_target_is_its_input_and_is_not_shuffled(tmp_path):
    script = SCRIPT.replace("PAIRS", "").replace("nn.Linear(256, 2)", "nn.Linear(256, 6)")
    report = planner_report(tmp_path, script.replace("model(xb) - yb", "model(xb) - xb"))
    assert "written by hand" not in _pairing(report).detail
    assert report.root_cause is None, report.findings
