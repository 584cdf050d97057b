"""Stage 4: an index loss whose ignore_index is a class the model predicts. For one target
per sample, a value frequent among the targets is a class, not padding: confirmed as it
is. For a target per element (a segmentation mask, per-token labels) the ignored value may
be a void label the model keeps a channel for on purpose, so the run decides: trained with
that class scored (training losses only: the program's evaluation stays as written), the
program's own held-out reading must improve by a quarter and lie beyond every reseeded run
as written. Padding that ends each sequence is never a class."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.merge import held_out_beyond_chance
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.records import Observation
from torch_investigate.tools.tracefile.trace import LossCall

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def _channels(c: LossCall) -> int:
    """The classes the loss input scores: its axis 1 (0 for a 1-D input)."""
    return c.input.shape[1] if len(c.input.shape) >= 2 else 0


def ignored_real_class(masked: list[LossCall]) -> tuple[LossCall, float] | None:
    """ignore_index set to a value that is an ordinary class of 1-D targets (not padding)."""
    counts: dict[str, int] = {}
    for c in masked:
        if len(c.target.shape) != 1 or c.ignored_tail:
            # per-token targets (flattened or not) whose ignored value ends each sequence:
            # padding, not a class
            return None
        for k, v in (c.target.values or {}).items():
            counts[k] = counts.get(k, 0) + v
    if not masked or not counts:
        return None
    c = masked[0]
    ignored = str(c.ignore_index)
    if not (0 <= c.ignore_index < _channels(c)) or ignored not in counts or len(counts) < 2:
        return None
    share = counts[ignored] / sum(counts.values())
    others = [v for k, v in counts.items() if k != ignored]
    if counts[ignored] >= 0.5 * (sum(others) / len(others)):
        return c, share
    return None


def ignored_channel(
    session: Session, masked: list[LossCall]
) -> tuple[LossCall, str, Observation] | None:
    """(the call, what it ignores, the held-out reading) when a per-element index loss
    ignores a class the model has an output channel for and scoring it helps the program's
    own held-out reading beyond chance; else None."""
    per_element = [c for c in masked if len(c.target.shape) >= 2 or len(c.input.shape) > 2]
    if not per_element or any(c.ignored_tail for c in masked) or session.runner is None:
        return None
    c = per_element[0]
    channels = _channels(c)
    dropped = sum(x.total_elements - x.contributing_elements for x in per_element)
    total = sum(x.total_elements for x in per_element)
    if c.ignore_index is None or not (0 <= c.ignore_index < channels) or not dropped:
        return None
    text = (
        f"{c.fn} at {c.frame} ignores index {c.ignore_index}, a class the model has an output "
        f"channel for (its output has {channels} channels): {fmt(100 * dropped / total)}% of "
        "the training target elements never contribute to the loss"
    )
    held = held_out_beyond_chance(
        session, {"unignore_class": True}, f"with index {c.ignore_index} scored in training"
    )
    return (c, text, held) if held is not None else None
