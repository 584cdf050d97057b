"""Stage 2, pairing of two arrays built from one collection by walks that drop different
elements (the features skip the days without weather, the labels the days without a
till export) and then lined up by position: cut to the shorter length, or zipped. The
data flow finds the two walks (tools/code/checks/walk_filters.py); the run decides. From
the first element one walk drops and the other keeps, each row carries a later element's
target, yet what neighbouring elements share (a season, a weekday) still lets the real
pairs transfer somewhat better than shuffled ones, so the permutation test passes.

The decisive experiment is the smallest change itself: in a copy of the workspace both
arrays are built from the elements that both walks keep, and the same reference fits run
there. When the pairs then transfer to the unseen batch (beyond what shuffled ones do) and
clearly better than as written (beyond how much the unseen loss wanders), the two filters
misaligned them. Walks that drop nothing on this data, or that drop the same elements,
give the same pairs after the edit, and nothing is confirmed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import baseline_trace
from torch_investigate.agent.checks.data_pairing import full_batch
from torch_investigate.agent.checks.pairing_walks import confirm_misaligned, edited_verdict
from torch_investigate.agent.core.edited import TextEdit
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.labels import pairing_of
from torch_investigate.tools.code.checks.walk_filters import FilteredPair, Side, filtered_pairs
from torch_investigate.tools.records import Stage
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

MAX_CANDIDATES = 3  # edited copies tried per investigation


@check(Stage.DATA)
def pairing_filters(session: Session, ev: Evidence) -> None:
    """After the pairing check: two walks of one collection that drop different elements,
    decided by building both arrays from the elements both keep (unless the pairing
    already failed)."""
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training or full_batch(t) or session.runner is None:
        return
    if ev.items.get("pairing", ("",))[0] != "failed" and t.train_loss_calls():
        filtered_apart(session, ev, t)


def filtered_apart(session: Session, ev: Evidence, t: Trace) -> bool:
    """Confirm label_misaligned where filtering the collection once, by both walks' tests,
    makes the pairs transfer; True when confirmed."""
    ctx = CheckContext(session.index, analysis(session.index))
    tried = 0
    for pair in filtered_pairs(ctx, pairing_of(ctx)):
        edits = pair.edits()
        if edits is None:
            continue
        tried += 1
        if tried > MAX_CANDIDATES:
            return False
        changes = [TextEdit(pair.unit.file, *e) for e in edits]
        verdict = edited_verdict(
            session,
            t,
            changes,
            edited_as=f"with both arrays built from the elements of `{pair.collection}` that both walks keep",
            meaning="from the first element that only one walk drops, each row is paired with "
            "a later element's target",
        )
        if verdict is None:
            continue  # the same pairs, or no clearer ones: nothing to confirm
        _confirm(session, ev, pair, edits[0][3], verdict)
        return True
    return False


def _confirm(session: Session, ev: Evidence, pair: FilteredPair, new: str, verdict: str) -> None:
    at = Frame(file=pair.unit.file, line=pair.second.line)
    text = (
        f"the arrays lined up row by row at {pair.unit.file}:{pair.first.line} and "
        f"{pair.unit.file}:{pair.second.line} are both built from `{pair.collection}` by walks "
        f"that drop different elements ({_dropping(pair.first)}; {_dropping(pair.second)}); "
        f"{verdict}"
    )
    confirm = (
        f"drop the elements of `{pair.collection}` that either array needs to skip once, "
        f"before building both (`{new}`), or pair the rows by key, and compare the "
        "held-out metric"
    )
    confirm_misaligned(session, ev, at, text, new, confirm)


def _dropping(s: Side) -> str:
    """How one walk drops elements, in the code's own words."""
    if not s.drops:
        return f"the walk at {s.walk.unit.file}:{sx.line(s.walk.loop)} drops none"
    d = s.drops[0]
    at = f"{s.walk.unit.file}:{sx.line(d.at)}"
    if d.test is None:
        return f"the walk may drop an element at {at} (`{sx.flat(d.at)[:80]}`)"
    verb = "keeps an element only where" if d.keeps else "drops an element where"
    return f"the walk at {at} {verb} `{sx.flat(d.test)}`"
