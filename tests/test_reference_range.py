"""The wide stand-in network (reference_model) gives its output in the range the model's
own output takes: probabilities for a loss that expects them (hunkim's diabetes MLP ends
in a sigmoid under BCELoss, which rejects a raw score), log-probabilities for NLLLoss,
raw scores otherwise."""

from __future__ import annotations

import torch

from torch_investigate.tools.trace.interventions.reference_model import _in_range, _range


def test_the_range_of_the_models_output_is_read():
    torch.manual_seed(0)
    z = torch.randn(16, 5)
    assert _range(z.sigmoid()[:, :1]) == "unit"
    assert _range(z.softmax(-1)) == "simplex"
    assert _range(z.log_softmax(-1)) == "log_simplex"
    assert _range(z) == ""
    assert _range(z[:2, :1].abs().clamp(max=1)) == ""  # two values say nothing


def test_the_stand_in_keeps_that_range():
    torch.manual_seed(0)
    y = 5 * torch.randn(16, 4)
    assert _range(_in_range(y, "unit")) == "unit"
    assert _range(_in_range(y, "simplex")) == "simplex"
    assert _range(_in_range(y, "log_simplex")) == "log_simplex"
    assert torch.equal(_in_range(y, ""), y)
