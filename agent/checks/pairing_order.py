"""Stage 2, pairing read from the trace: targets that reach the loss reordered against
the batch they came in, or integer targets that are the model's input moved further than
the next position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.target_leak import training_forward
from torch_investigate.tools.taxonomy import taxonomy
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def reordered(session: Session, ev: Evidence, t: Trace) -> bool:
    """Targets that reach the loss reordered across samples against the DataLoader batch
    they came from, while the model gets that batch's inputs as delivered."""
    o = t.target_order
    if o.reordered < 2 or o.reordered < 0.5 * o.compared:
        return False
    text = (
        f"at {o.reordered} of {o.compared} training batches compared, the targets reach the loss "
        f"({o.frame}) in another order than the batch they came in ({fmt(100 * (o.moved or 0))}% "
        "of the rows moved to another sample's position), while the model receives that batch's "
        "inputs in their order"
    )
    ev.find(
        "label_misaligned",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, o.frame, session, reordered=o.reordered, compared=o.compared)],
        where=first_static_location(session, "label_misaligned") or where(session, o.frame),
        why=taxonomy().category("label_misaligned").why,
        confirm="compare the target rows at the loss with the batch the DataLoader yields; remove the reordering between them",
    )
    ev.item("pairing", "failed", text)
    return True


def skipped(session: Session, ev: Evidence, t: Trace) -> bool:
    """Integer targets that are the model's input moved two or more positions at nearly
    every training loss call, never one: each position is paired with a token further
    ahead than the next (a shift applied twice, once when the targets are stored and
    again when a window is cut from them)."""
    made = t.target_is_input
    if not made.compared or made.skipped < max(3, 0.9 * made.compared):
        return False
    text = (
        f"at {made.skipped} of {made.compared} training loss calls the integer targets "
        f"({made.skip_frame}) are the model's input moved {made.skip} positions, and at none "
        f"by one: each position is paired with the token {made.skip} ahead, not the next one"
    )
    loader = t.train_loader()
    ev.find(
        "label_misaligned",
        status="confirmed",
        confidence="medium",
        evidence=[runtime(text, made.skip_frame, session, skipped=made.skipped, skip=made.skip)],
        where=first_static_location(session, "label_misaligned")
        or places.dataset_class(
            session, loader.dataset_class if loader else None, ("__getitem__", "__init__")
        )
        or places.batch_source(session)
        or where(session, made.skip_frame),
        why=taxonomy().category("label_misaligned").why,
        confirm=f"print one input row next to its target row: the targets start {made.skip} positions into the inputs; cut the targets one position after the inputs",
    )
    ev.item("pairing", "failed", text)
    return True


def rows_moved(session: Session, ev: Evidence, t: Trace) -> bool:
    """Targets that are, row for row, the continuation of another row's input at nearly
    every training loss call (target row i is input row i + k moved one position along
    time, and no row its own input moved): each sequence is paired with a different
    sequence's next values (`data[:-3, 1:]` beside `data[3:, :-1]`)."""
    made = t.target_is_input
    if not made.compared or made.rows_moved < max(3, 0.9 * made.compared):
        return False
    k = made.row_offset
    text = (
        f"at {made.rows_moved} of {made.compared} training loss calls each target row i "
        f"({made.rows_frame}) is input row i{k:+d} moved one position along time, and no row "
        "is its own input moved: every sequence is paired with another sequence's "
        "continuation"
    )
    ev.find(
        "label_misaligned",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, made.rows_frame, session, rows_moved=made.rows_moved, offset=k)],
        where=first_static_location(session, "label_misaligned")
        or places.target_cut(session, made.rows_frame, training_forward(t), within=True)
        or where(session, made.rows_frame),
        why=taxonomy().category("label_misaligned").why,
        confirm=f"print(torch.equal(target[{max(-k, 0)}, :-1], input[{max(k, 0)}, 1:])): the target of one row continues another; cut inputs and targets from the same rows",
    )
    ev.item("pairing", "failed", text)
    return True
