"""Stage 2: evaluation rows that keep offsets the training rows had removed. A recording,
night or subject standardized on its own in training (its rows centred on its own mean)
and by the pooled statistics in evaluation leaves the per-feature moments alike (both
phases are centred overall), so the per-feature comparison passes; what differs is how
much of the inputs' spread lies between rows (each row's own mean) rather than within
them. When that share is wider in evaluation than drawing this many rows allows, the run
decides: each evaluation row is given the training rows' average mean and spread, and the
program's own evaluation must improve by the share the per-feature alignment needs. A
grouped split whose groups differ (other subjects) has the same share on both sides; a
row mean that carries the class loses it when aligned, and the evaluation gets worse."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.input_moments import (
    aligned_evaluation,
    chance_bounds,
    eval_frame,
    last_evaluations,
)
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.pairing_fresh import own_accuracy
from torch_investigate.agent.checks.spread import RESEEDS, Band
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.records import Forward
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def _share(m: dict[str, float]) -> float | None:
    total = m["between"] + m["within"]
    return m["between"] / total if total > 0 else None


def wider_eval_rows(session: Session, ev: Evidence, t: Trace) -> bool:
    """A confirmed preprocessing_mismatch when evaluation rows keep offsets training rows
    lost and aligning them repairs the program's evaluation; True when found."""
    for key, train in t.row_offsets.items():
        phase, _, model = key.partition(":")
        other = t.row_offsets.get(f"eval:{model}")
        if phase != "train" or other is None:
            continue
        st, se = _share(train), _share(other)
        if not st or not se:
            continue
        # the rows' own means as a share of the spread, as a ratio of standard deviations
        ratio = math.sqrt(se / st)
        _, by_chance = chance_bounds(int(train["n"]), int(other["n"]), 1.0)
        if ratio <= by_chance:
            continue
        aligned = aligned_evaluation(
            session,
            "align_eval_rows",
            "each evaluation row given the training rows' mean and spread",
        )
        text = (
            f"each input row's own mean carries {fmt(100 * se)}% of the evaluation inputs' "
            f"spread against {fmt(100 * st)}% of the training inputs' ({int(train['n'])} "
            f"training and {int(other['n'])} evaluation rows): evaluation rows keep offsets "
            "the training rows do not have"
        )
        if aligned is None or not aligned.helps:
            detail = f"; {aligned.text}" if aligned is not None else ""
            ev.item("train_eval_inputs", "passed", f"{text}{detail}")
            return False
        band = _seed_band(session, t, aligned.observation.values)
        seeds = f"; {band.text()}" if band is not None else ""
        kept = _kept_from_chance(t, aligned.observation.values)
        if band is not None and not band.beyond(aligned.observation.values["eval_aligned"]):
            kept = "the aligned evaluation is not beyond what the seeds alone move it by"
        if kept:
            ev.item("train_eval_inputs", "passed", f"{text}; {aligned.text}{seeds}; {kept}")
            return False
        text = f"{text}{seeds}"
        ev.find(
            "preprocessing_mismatch",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, None, session), aligned.observation],
            where=_held_out_origin(session, t)
            or places.input_origin(session, eval_frame(t), transformed=True)
            or first_static_location(session, "preprocessing_mismatch")
            or where(session, eval_frame(t)),
            why="training rows were standardized per group (a recording, a night, a subject) and evaluation rows were not, so the model is scored on inputs unlike those it learned on",
            confirm="standardize evaluation rows the way training rows are (per group), or both by the same pooled statistics, and compare the evaluation metric",
        )
        ev.item("train_eval_inputs", "failed", f"{text}; {aligned.text}")
        return True
    return False


# A mismatch costs the evaluation part of what the model learned: aligning the rows must
# win back at least this share of the way from chance to the aligned evaluation.
LOST = 0.1


def _kept_from_chance(t: Trace, values: dict) -> str | None:
    """Why the aligned evaluation's gain is no sign of a mismatch, or None: the error rate
    as written is already nearly as far from chance as aligned (giving every row one
    mean and spread can suit the data itself, a gain per row a model should ignore)."""
    acc = own_accuracy(t)
    base, moved = values.get("eval_as_written"), values.get("eval_aligned")
    if acc is None or "error rate" not in str(values.get("measure")):
        return None
    if not isinstance(base, float) or not isinstance(moved, float):
        return None
    chance = 1.0 - acc.majority
    room = chance - moved
    if room <= 0 or (base - moved) >= LOST * room:
        return None
    return (
        f"but as written the error rate is already {fmt(base)} against {fmt(chance)} by "
        f"always answering the most frequent label: aligning wins back {fmt(100 * (base - moved) / room)}% "
        "of the way from chance, so the evaluation as written follows training and the "
        "gain is the transform's, not a mismatch undone"
    )


def _seed_band(session: Session, t: Trace, values: dict) -> Band | None:
    """The program's evaluation, read as the aligned one was, in the run as written and in
    its reseeded copies: the aligned evaluation must lie beyond it (training is the same
    run in the aligned one; the seeds move training). None when a reseeded run reads no
    evaluation of the same kind: the aligned gain's size alone decides."""
    moved = values.get("eval_aligned")
    if session.runner is None or not isinstance(moved, float):
        return None
    steps = t.n_steps or None
    aligned = session.runner.get(values.get("interventions") or {}, steps=steps).trace
    reseeded = session.runner.many([{"reseed": k} for k in RESEEDS], steps=steps)
    pairs = [last_evaluations(aligned, r.trace) for r in reseeded]
    if not pairs or any(p is None or p[:2] != (values["measure"], moved) for p in pairs):
        return None
    return Band((values["eval_as_written"], *(p[2] for p in pairs if p is not None)))


def _held_out_origin(session: Session, t: Trace) -> Location | None:
    """Where the inputs of the evaluation forward that scores no training rows are made,
    through the call that passed them in: a helper (`predict(model, X)`) called for the
    training rows every epoch and for the held-out rows once takes the held-out rows from
    one caller only."""
    fw = _held_out_forward(t)
    if fw is None or fw.frame is None or fw.caller is None:
        return None
    unit = session.index.unit(fw.frame.file)
    if unit is None:
        return None
    a = analysis(session.index)
    for call in sorted(
        (c for c in unit.call_nodes if sx.line(c) == fw.frame.line),
        key=lambda c: c.start_byte - c.end_byte,
    ):
        arg = sx.argument(call, 0, "x")
        if arg is None:
            continue
        for origin in a.flow.trace(Value(arg, a.flow.frame_at(unit, arg)), dataflow=True):
            path = origin.path
            at = next(
                (
                    k
                    for k, v in enumerate(path)
                    if (v.file, v.line) == (fw.caller.file, fw.caller.line)
                ),
                None,
            )
            made = (
                next((v for v in path[at + 1 :] if v.node.type not in _NAMES), None)
                if at is not None
                else None
            )
            if made is not None:
                symbol = session.index.enclosing_symbol(made.file, made.line)
                return Location(file=made.file, line=made.line, symbol=symbol)
    return None


_NAMES = ("identifier", "expression_list", "tuple", "pattern_list", "return_statement")


def _held_out_forward(t: Trace) -> Forward | None:
    """The last evaluation forward whose batch (same call site, step and rows) holds no
    row the model trained on, called from another function than its own."""
    held = {
        (eb.site, eb.step, eb.rows)
        for eb in t.batches.eval_batches
        if eb.rows and eb.overlap == 0 and eb.holds_train_rows == 0
    }
    for fw in reversed(t.eval_forwards()):
        rows = fw.inputs[0].shape[0] if fw.inputs and fw.inputs[0].shape else None
        if fw.frame is not None and (_site(fw.frame), fw.step, rows) in held:
            return fw
    return None


def _site(frame: Frame) -> str:
    return f"{frame.file}:{frame.line}"
