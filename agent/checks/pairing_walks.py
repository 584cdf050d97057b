"""Stage 2, pairing of two arrays built by walking one collection in two orders (the
features over `sorted(groups)`, the labels over `groups.items()`): the static check
(tools/code/checks/walk_orders.py) finds the two walks, the run decides. Each row of such
data carries another group's label, yet a model can still learn from it whatever the
groups share (a season, a weekday), so real pairs may transfer better than shuffled ones
and the permutation test passes or cannot tell.

The decisive experiment is the smallest change itself: in a second copy of the workspace
the second walk follows the first one's order, and the same reference fits run there.
When the pairs then transfer to the unseen batch (beyond what shuffled ones do) and
clearly better than as written (beyond how much the unseen loss wanders), the two orders
misaligned them. A collection filled in sorted order anyway gives the same pairs after
the edit, and nothing is confirmed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import baseline_trace
from torch_investigate.agent.checks.data_pairing import (
    MARGIN,
    Transfer,
    _fit_pairs,
    _transfers,
    full_batch,
    reference_spec,
)
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.numbers import change, fmt
from torch_investigate.agent.core.edited import TextEdit, edited_runner
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.labels import pairing_of
from torch_investigate.tools.code.checks.walk_orders import mismatched, reordering_edit
from torch_investigate.tools.records import Observation, Stage
from torch_investigate.tools.taxonomy import taxonomy
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


@check(Stage.DATA)
def pairing_walks(session: Session, ev: Evidence) -> None:
    """After the pairing check: a static suspicion of two walks in two orders, decided by
    walking them in one (unless the pairing already failed)."""
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training or full_batch(t):
        return
    if ev.items.get("pairing", ("",))[0] != "failed":
        walked_apart(session, ev, t)


def walked_apart(session: Session, ev: Evidence, t: Trace) -> bool:
    """Confirm label_misaligned where reordering one walk makes the pairs transfer; True
    when confirmed."""
    suspected = [
        f
        for f in session.static_findings
        if f.category == "label_misaligned" and f.detector == "static.label_misaligned"
    ]
    if not suspected or session.runner is None or not t.train_loss_calls():
        return False
    ctx = CheckContext(session.index, analysis(session.index))
    for wrong, right in mismatched(ctx, pairing_of(ctx)):
        edit = reordering_edit(wrong, right)
        if edit is None:
            continue
        start, end, old, new = edit
        change_made = TextEdit(wrong.unit.file, start, end, old, new)
        at = Frame(file=wrong.unit.file, line=wrong.place.start_point[0] + 1)
        verdict = edited_verdict(session, t, [change_made])
        if verdict is None:
            continue  # the suspicion stays a suspicion
        text = (
            f"the arrays lined up row by row are built walking one collection in two orders "
            f"(`{old}` at {at}, against the walk at {right.unit.file}:{right.place.start_point[0] + 1}); "
            f"{verdict}"
        )
        confirm = f"walk the collection as `{new}` at {at} and compare the held-out metric"
        confirm_misaligned(session, ev, at, text, new, confirm)
        return True
    return False


def edited_verdict(session: Session, t: Trace, changes: list[TextEdit], **words) -> str | None:
    """The reference fits run on the program as written and on a copy with `changes`:
    what shows the copy's pairs transfer clearly better (`_better`, worded by `words`);
    None when they do not or the copy cannot run."""
    base, site = reference_spec(t)
    written, floor = _fit_pairs(session, t, base, site)
    with edited_runner(session, changes) as runner:
        if runner is None:
            return None
        edited, _ = _fit_pairs(session, t, base, site, runner=runner)
    return _better(written, edited, floor, **words)


def confirm_misaligned(
    session: Session, ev: Evidence, at: Frame, text: str, new: str, confirm: str
) -> None:
    """The confirmed label_misaligned an edit that realigns the pairs proved."""
    ev.find(
        "label_misaligned",
        status="confirmed",
        confidence="high",
        evidence=[Observation(source="intervention", text=text, values={"edit": new})],
        where=where(session, at),
        why=taxonomy().category("label_misaligned").why,
        confirm=confirm,
    )
    ev.item("pairing", "failed", text)


def _better(
    written: list[tuple[Transfer, Transfer]],
    edited: list[tuple[Transfer, Transfer]],
    floor: float | None,
    edited_as: str = "with the walks in one order",
    meaning: str = "each row is paired with another group's target",
) -> str | None:
    """What shows the edited copy's pairs transfer and clearly better than as written, at
    one step size; None when they do not. `edited_as` words the edit, `meaning` what the
    gap says of the pairs as written."""
    for real_e, shuffled_e in edited:
        if not _transfers(real_e, shuffled_e, floor):
            continue
        same_lr = [rs for rs in written if rs[0].lr == real_e.lr]
        if not same_lr:
            continue
        real_w, shuffled_w = same_lr[0]
        margin = max(MARGIN, 2 * (real_e.noise + real_w.noise))
        if real_e.gain <= real_w.gain + margin:
            continue
        return (
            f"fitting the first training batches with Adam (lr {real_e.lr:g}) and measuring "
            f"an unseen batch, the loss {change(real_e.gain)} {edited_as} "
            f"({fmt(real_e.first)} -> {fmt(real_e.best)}; {change(shuffled_e.gain)} with "
            f"shuffled pairs) against {change(real_w.gain)} as written "
            f"({fmt(real_w.first)} -> {fmt(real_w.best)}; {change(shuffled_w.gain)} shuffled), "
            f"more than the {fmt(100 * margin)}% the unseen loss wanders by: as written {meaning}"
        )
    return None
