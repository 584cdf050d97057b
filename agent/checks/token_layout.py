"""Stage 3: a next-token model reading tokens that are no neighbours in the text. The
tracer measures, over the first training batches, how much neighbouring ids depend on
each other along the axis the targets are shifted on (the model's time axis) and across
it (tools/trace/token_layout.py; 1 is independence). Text laid out the wrong way
(`data.view(-1, bsz)` for `data.view(bsz, -1).t()`) puts the dependence across the batch
and leaves the time axis none: the model reads tokens `bsz` apart as a sequence. A
layout where both axes hold it (overlapping windows in order) is no finding; only
dependence across the batch far beyond what the time axis holds is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.levels import marginal_level, per_element
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.pairing_fresh import EVAL_LEARNS
from torch_investigate.agent.core.curves import final_level
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# neighbours across the batch must depend on each other at least this much (pairs agree
# 1.5 times as often as their tokens' frequencies make them), and by CLEAR times more
# (above independence) than neighbours along the time axis do
DEPENDS, CLEAR = 1.5, 4.0


def scrambled_sequence(session: Session, ev: Evidence, t: Trace) -> bool:
    """A finding when the text's neighbours run across the batch instead of along time."""
    nb = t.neighbours
    if nb is None or nb.along is None or nb.across is None:
        return False
    if nb.across < DEPENDS or nb.across - 1 < CLEAR * max(nb.along - 1, 0.0):
        return False
    if _learns_beyond_frequencies(t):
        # a model that reads unrelated tokens as a sequence has nothing to predict beyond
        # their frequencies; one that does better reads a sequence (a corpus whose pieces
        # repeat in step across the columns makes the batch axis look dependent too)
        return False
    across = "the first" if nb.time_axis == 1 else "the second"
    text = (
        f"in {nb.batches} training batches of a next-token model (targets are its input "
        f"moved one position along axis {nb.time_axis}), neighbouring tokens along that "
        f"axis pair up {fmt(nb.along)} times as often as their frequencies alone make them "
        f"({nb.along_pairs} pairs), while neighbours along {across} axis, across the batch, "
        f"pair up {fmt(nb.across)} times as often ({nb.across_pairs} pairs): the text runs "
        "across the batch, and the model reads tokens that were never next to each other "
        "as a sequence"
    )
    laid = f" (the batches are cut from data last laid out at {nb.layout})" if nb.layout else ""
    ev.find(
        "reshape_scramble",
        status="confirmed",
        confidence="high",
        evidence=[
            runtime(
                text + laid,
                nb.layout,
                session,
                along=nb.along,
                across=nb.across,
                time_axis=nb.time_axis,
            )
        ],
        where=where(session, nb.layout) or first_static_location(session, "reshape_scramble"),
        why="a sequence model learns from the order of its positions; with the text laid out across the batch, consecutive positions hold unrelated tokens and there is nothing to predict beyond token frequencies",
        confirm="print one column of a training batch as text: it should read as a sentence; lay the data out as (sequence, batch) with .view(bsz, -1).t() (or index windows along the text) and compare the loss",
    )
    ev.item("shapes", "failed", text)
    return True


def _learns_beyond_frequencies(t: Trace) -> bool:
    """The run's training loss settles clearly below what the targets' frequencies alone
    allow (their entropy, per element)."""
    calls = t.train_loss_calls()
    level = marginal_level(calls) if calls else None
    scale = per_element(calls[0]) if calls else None
    settled = final_level(t.raw_curve())
    if not level or not scale or settled is None:
        return False
    return settled / scale < level * (1 - EVAL_LEARNS)
