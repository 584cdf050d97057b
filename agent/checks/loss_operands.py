"""The operands of a training loss call: which one is the prediction and which the
target (whichever slot each was passed in), and calls whose two operands broadcast
against each other."""

from __future__ import annotations

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
    prediction is compared with every target, whatever the pairing."""
    return [
        c
        for c in t.train_loss_calls()
        if c.broadcast_shape
        and c.broadcast_shape != c.input.shape
        and c.broadcast_shape != c.target.shape
    ]
