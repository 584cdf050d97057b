"""A loss mask that keeps exactly the elements the model receives as they are (round 11's
gap filler: the mask of visible readings passed where the helper expects the hidden ones).
Every kept target equals the model's input at the same place while the dropped ones
differ: the loss is minimized by copying, so it is a loss_mask_error, placed at the call
that passes the mask. The hidden-readings mask is healthy, and so is a loss on observed
entries whose missing entries are zeros in input and target alike (a rating
autoencoder): the dropped elements equal the input too."""

from __future__ import annotations

import pytest
from conftest import planner_report

SCRIPT = """import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
rng = np.random.default_rng(0)
base = torch.from_numpy((rng.normal(size=(4000, 4)) @ rng.normal(size=(4, 24))).astype("float32"))
data = BASE
def masked_mse(pred, target, mask):
    return ((pred - target) ** 2 * mask).sum() / mask.sum().clamp_min(1.0)
class Filler(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(48, 128), nn.ReLU(), nn.Linear(128, 24))
    def forward(self, x_in, visible):
        return self.net(torch.cat([x_in, visible], 1))
model = Filler()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(4):
    perm = torch.randperm(4000)
    for i in range(0, 4000, 100):
        x = data[perm[i:i + 100]]
        visible = (torch.rand(x.shape) > 0.3).float()
        x_in = x * visible
        pred = model(x_in, visible)
        loss = masked_mse(pred, x, MASK)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
"""


def _confirmed(report):
    return [(f.category, f.line) for f in report.findings if f.status == "confirmed"]


@pytest.mark.slow
def test_a_loss_on_the_visible_readings_is_a_mask_error_at_the_call(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("BASE", "base").replace("MASK", "visible"))
    assert _confirmed(report) == [("loss_mask_error", 25)]


@pytest.mark.slow
def test_a_loss_on_the_hidden_readings_is_healthy(tmp_path):
    script = SCRIPT.replace("BASE", "base").replace("MASK", "1 - visible")
    assert _confirmed(planner_report(tmp_path, script)) == []


def test_observed_entries_with_zeros_elsewhere_are_healthy(tmp_path):
    # ratings: missing entries are zero in the data itself, so the model sees what the
    # target holds there too; the loss on observed entries is the usual one
    script = SCRIPT.replace(
        "BASE", "base * torch.from_numpy(rng.random((4000, 24)) > 0.3).float()"
    ).replace("MASK", "(x != 0).float()")
    assert _confirmed(planner_report(tmp_path, script)) == []


def test_the_rule_reads_kept_and_dropped_elements_of_every_call():
    from torch_investigate.agent.checks.hand_mask import visible_masks
    from torch_investigate.tools.tracefile.mask_records import DifferenceMask
    from torch_investigate.tools.tracefile.trace import Trace

    def trace(**counts):
        mask = DifferenceMask(calls=25, compared=25, kept=700, total=1000, **counts)
        return Trace(format_version=1, status="completed", difference_masks=[mask])

    assert visible_masks(trace(kept_in_input=700, dropped_in_input=0))  # copy the input
    assert not visible_masks(trace(kept_in_input=690, dropped_in_input=0))  # not every one
    assert not visible_masks(trace(kept_in_input=700, dropped_in_input=200))  # zeros both
