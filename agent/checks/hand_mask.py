"""Stage 4, a mask multiplied into a loss written by hand (`((pred - y) ** 2 * keep).sum()
/ keep.sum()`): when it keeps elements of one target value only while the batch's targets
take several, the loss is trained on that value alone (a day/night flag passed where the
helper expects the elements to ignore), or when it keeps exactly the elements the model
receives as they are in its input while the dropped ones differ there (an imputer's loss
given the mask of visible readings where it expects the hidden ones): the loss is then
minimized by copying the input, and the elements to predict are never trained."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import caller_places, mask_places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def one_value_masks(t: Trace) -> list:
    """The hand-written masked differences most of whose recorded calls keep one target
    value while their batch holds others."""
    return [
        m
        for m in t.difference_masks
        if m.calls >= 2 and m.one_value >= max(2, m.calls // 2) and m.kept < m.total
    ]


def one_value_kept(session: Session, ev: Evidence, t: Trace) -> bool:
    """A confirmed loss_mask_error for the first of one_value_masks."""
    for m in one_value_masks(t):
        value = fmt(m.kept_values[0]) if len(m.kept_values) == 1 else "one value per call"
        text = (
            f"the loss written by hand at {m.frame} is multiplied by a 0/1 mask that keeps "
            f"{m.kept} of {m.total} elements over {m.calls} calls; in {m.one_value} of them "
            f"every kept target is {value} while the batch's targets take several values: "
            "the loss never sees the others"
        )
        ev.find(
            "loss_mask_error",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, m.frame, session, kept=m.kept, total=m.total)],
            where=mask_places.mask_compared_at(session, m.frame)
            or first_static_location(session, "loss_mask_error")
            or where(session, m.frame),
            why="the loss is averaged over the wrong elements, so the gradient trains the positions the mask should have dropped",
            confirm="print which target values the mask keeps in one batch; pass the mask with the convention the loss expects (keep vs ignore)",
        )
        ev.item("contributing_elements", "failed", text)
        return True
    return False


def visible_masks(t: Trace) -> list:
    """Masked differences whose every kept target equals the model's input at the same
    place in every recorded call, while most dropped targets differ from it."""
    return [
        m
        for m in t.difference_masks
        if m.calls >= 2
        and m.compared == m.calls
        and 0 < m.kept < m.total
        and m.kept_in_input == m.kept
        and 2 * m.dropped_in_input < m.total - m.kept
    ]


def visible_kept(session: Session, ev: Evidence, t: Trace) -> bool:
    """A confirmed loss_mask_error for the first of visible_masks."""
    for m in visible_masks(t):
        dropped = m.total - m.kept
        text = (
            f"the loss written by hand at {m.frame} keeps {m.kept} of {m.total} elements over "
            f"{m.calls} calls, and every kept target equals the model's input at the same "
            f"place; of the {dropped} dropped elements {m.dropped_in_input} do: the loss is "
            "taken where the model sees the answer and left out where it must predict it"
        )
        ev.find(
            "loss_mask_error",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, m.frame, session, kept=m.kept, total=m.total)],
            where=caller_places.caller_passing(session, m.frame)  # the mask was passed in there
            or first_static_location(session, "loss_mask_error")
            or where(session, m.frame),
            why="a model can drive this loss to zero by copying its input, so the elements it should predict get no gradient",
            confirm="pass the mask of the hidden elements (1 - the visible mask) to the loss and compare the error on the hidden elements",
        )
        ev.item("contributing_elements", "failed", text)
        return True
    return False
