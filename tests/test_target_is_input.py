"""The targets-are-inputs test (tools/trace/target_order.py): a model shown the ids it is
asked to predict, told apart from a GPT-style forward handed its targets to compute the
loss inside, and from targets that are the next token."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import torch

from torch_investigate.tools.trace import target_order


def _compare(fed: list[torch.Tensor], target: torch.Tensor) -> dict:
    rec = SimpleNamespace(
        received=fed,
        quiet=contextlib.nullcontext,
        target_is_input={
            "compared": 0,
            "equal": 0,
            "reconstructed": 0,
            "shifted": 0,
            "frame": None,
        },
        received_call=None,  # no forward to probe for later positions
        future=None,
        layout_sites={},
        neighbours={"batches": 0, "time_axis": None, "layout": None, "along": [], "across": []},
    )
    target_order.target_against_input(rec, target, None)
    return rec.target_is_input


def test_a_forward_handed_its_targets_beside_its_ids_is_not_shown_its_answer():
    stream = torch.arange(100) % 17
    x = torch.stack([stream[i : i + 8] for i in range(0, 40, 8)])
    y = torch.stack([stream[i + 1 : i + 9] for i in range(0, 40, 8)])
    seen = _compare([x, y], y.view(-1))  # forward(idx, targets); loss(logits, targets)
    assert seen["equal"] == 0 and seen["shifted"] == 1
    # the same forward given unshifted targets: every id it received is its answer
    seen = _compare([x, x.clone()], x.view(-1))
    assert seen["equal"] == 1
    # a model given only its targets as input
    assert _compare([x], x.view(-1))["equal"] == 1
    # the next token, given as input alone
    assert _compare([x], y.view(-1))["shifted"] == 1
