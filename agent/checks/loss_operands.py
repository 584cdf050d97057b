"""The operands of a training loss call: which one is the prediction and which the
target (whichever slot each was passed in), and calls whose two operands broadcast
against each other."""

from __future__ import annotations

import math

from torch_investigate.tools.tracefile.trace import Trace


def swapped(c) -> bool:
    """A loss call whose first argument is data and whose second comes from the model."""
    return (not c.input.requires_grad) and c.target.requires_grad


def target_of(c):
    """The operand that holds the targets, whichever slot it was passed in."""
    return c.input if swapped(c) else c.target


def prediction_of(c):
    return c.target if swapped(c) else c.input


def cross_broadcast_losses(t: Trace) -> list:
    """Training loss calls whose input and target broadcast to a shape neither has: every
    prediction is compared with every target, whatever the pairing; or whose predictions
    are repeated across a target that holds more of them per sample (64 predictions
    against a [64, 64] target built by a broadcast upstream: torch warns, and each
    prediction is pulled toward 64 targets)."""
    return [
        c
        for c in t.train_loss_calls()
        if c.broadcast_shape
        and c.broadcast_shape != c.input.shape
        and (c.broadcast_shape != c.target.shape or _repeated(c.input.shape, c.target.shape))
    ]


def _repeated(prediction: list[int], target: list[int]) -> bool:
    """The predictions, one batch of them, stretched over a target with more per sample."""
    n_pred, n_target = math.prod(prediction), math.prod(target)
    return (
        len(prediction) >= 1
        and len(target) >= 2
        and prediction[0] == target[0]
        and n_pred < n_target
        and n_target % n_pred == 0
    )


def one_value_masks(calls: list) -> list:
    """Loss calls masked (a boolean selection of the target, or 0/1 weights multiplied
    into an element-wise loss) to elements of one target value while the batch holds
    others: the loss is trained on that value alone. Empty unless at least half of the
    calls are."""
    cut = [
        c
        for c in calls
        if c.mask
        and c.mask.get("total")
        and c.mask.get("kept_values") is not None
        and len(c.mask["kept_values"]) == 1
        and len(c.mask.get("source_values") or []) > 1
        and c.mask["kept"] < c.mask["total"]
    ]
    return cut if cut and len(cut) >= max(1, len(calls) // 2) else []
