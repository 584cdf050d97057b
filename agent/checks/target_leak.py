"""Stage 2, the target inside the model's input: ids the model receives as its targets
(a language model whose targets were never shifted), a model that sees the future, an
input column (or a block of columns) equal to the target row for row, a real-valued
target some feature columns reproduce exactly. Each is confirmed leakage, placed where
the input and target are cut."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.future_reading import sees_future
from torch_investigate.agent.checks.levels import marginal_level, per_element
from torch_investigate.agent.checks.locations import first_static_location, loader_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.curves import final_level
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# a loss that settles below this share of the targets' marginal level while the model
# receives its own targets has learned to copy them
TOO_GOOD = 0.25


def training_forward(t: Trace) -> Frame | None:
    """Where the first training forward with a known line was called."""
    return next((f.frame for f in t.train_forwards() if f.frame is not None), None)


def _target_is_input(session: Session, ev: Evidence, t: Trace) -> bool:
    """Integer targets equal, at every position, to ids the model itself received: it is
    shown the answer it is asked for (a language model whose targets were never shifted).
    Confirmed when the loss also falls far below what the targets' distribution allows,
    as a model that reads its answer does; a suspicion when it does not."""
    s = t.target_is_input
    if s.equal < 3 or s.equal < 0.9 * s.compared:
        return False
    calls = t.train_loss_calls()
    level = marginal_level(calls) if calls else None
    scale = per_element(calls[0]) if calls else None
    settled = final_level(t.curve())
    ratio = settled / scale / level if settled is not None and level and scale else None
    text = (
        f"at {s.equal} of {s.compared} training loss calls the targets ({s.frame}) equal, "
        "position by position, integer ids the model received as its input in the same "
        "iteration"
    )
    if ratio is not None:
        text += (
            f"; the loss settles at {fmt(settled / scale)} per element, {fmt(100 * ratio)}% of "
            f"the {fmt(level)} the targets' distribution alone allows"
        )
    confirmed = ratio is not None and ratio < TOO_GOOD
    ev.find(
        "split_leakage",
        title="the targets are the ids the model receives as its input",
        status="confirmed" if confirmed else "plausible",
        confidence="high" if confirmed else "medium",
        evidence=[runtime(text, s.frame, session, equal=s.equal, compared=s.compared)],
        where=first_static_location(session, "split_leakage")
        or places.dataset_class(
            session,
            t.train_loader().dataset_class if t.train_loader() else None,
            ("__getitem__", "__init__"),  # where one sample's input and target are cut
        )
        or places.target_cut(session, s.frame, training_forward(t))
        or places.batch_source(session)
        or where(session, s.frame),
        why="the model reads each target from its own input, so the loss measures copying, not the task (a language model must predict the next token, not the one it is given)",
        confirm="print one input row next to its target row: they are the same ids; shift the targets one position against the inputs",
    )
    ev.item("leakage", "failed", text)
    return True


def target_in_input(session: Session, ev: Evidence, t: Trace) -> bool:
    return (
        _target_is_input(session, ev, t)
        or sees_future(session, ev, t)
        or _target_among_inputs(session, ev, t)
        or _target_block_among_inputs(session, ev, t)
    )


def _target_block_among_inputs(session: Session, ev: Evidence, t: Trace) -> bool:
    """A target of several values per row (the next profile of a series) whose every
    column equals an input column, row for row, in every training batch compared, the
    input at least twice as wide: the window was cut to end with the values it must
    predict. An autoencoder reads its whole target too, but through a layer narrower than
    the target (copying is its task); a model with such a layer is left alone."""
    b = t.batches
    cols = b.target_block_equal
    if not cols or b.target_block_compared < 2 or len(set(cols)) < len(cols):
        return False
    k = len(cols)
    narrowest = min(
        (p.shape[0] for p in t.parameters if len(p.shape) == 2 and p.requires_grad_at_start),
        default=None,
    )
    if narrowest is not None and narrowest < k:
        ev.item(
            "leakage",
            "passed",
            f"each of the target's {k} columns equals an input column, but the model passes "
            f"through a layer of {narrowest} units: it reconstructs its input (an autoencoder)",
        )
        return True
    shown = ", ".join(map(str, cols[:4])) + (", ..." if k > 4 else "")
    text = (
        f"each of the target's {k} values per row equals an input column (columns {shown}), "
        f"row for row, in all {b.target_block_compared} training batches compared: the model "
        "is handed the values it must predict"
    )
    confirm = f"print((x.flatten(1)[:, {cols[0]}] == y[:, 0]).all()) on a training batch; end each input window before the values it predicts"
    column_leak(session, ev, t, text, cols, confirm)
    return True


def _target_among_inputs(session: Session, ev: Evidence, t: Trace) -> bool:
    """An input column equal to the target, row for row, in every training batch (a
    forecasting window cut one step too late ends with the value it must predict): the
    model is handed its answer, whatever the task; also a column that is the target scaled
    and shifted to float rounding (inputs and target standardized with their own
    statistics). Only exact relations, and only among two or more columns: a feature that
    merely tracks a real-valued target is the task."""
    b = t.batches
    equal = b.columns_equal_target or b.columns_affine_target
    shapes = [s["tensors"][0].shape for s in b.train[:1] if s.get("tensors")]
    width = math.prod(shapes[0][1:]) if shapes and len(shapes[0]) >= 2 else 0
    if not equal or width < 2 or b.target_compared_columns < 2:
        return False
    what = "column" if len(shapes[0]) == 2 else f"element (of each {list(shapes[0][1:])} row)"
    how = (
        "equals the target"
        if b.columns_equal_target
        else "is the target scaled and shifted (a·y + b to float rounding)"
    )
    text = (
        f"input {what} {equal[0]} of {width} {how}, row for row, in all "
        f"{b.target_compared_columns} training batches compared: the model is handed the "
        "value it must predict"
    )
    confirm = f"print((x[:, {equal[0]}] == y).all()) on a training batch; build each input from values before the target only"
    column_leak(session, ev, t, text, equal, confirm)
    return True


def column_leak(
    session: Session, ev: Evidence, t: Trace, text: str, columns: list[int], confirm: str
) -> None:
    """Input columns that give the target away: confirmed leakage."""
    ev.find(
        "split_leakage",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, None, session, columns=columns)],
        where=first_static_location(session, "split_leakage")
        or loader_location(session, t)
        or places.input_cut(session, _loss_frame(t), _train_frame(t))
        or places.input_origin(session, _train_frame(t)),
        why="the model can read its target from its input and learns to copy it: the metrics say nothing about the task",
        confirm=confirm,
    )
    ev.item("leakage", "failed", text)


def linear_target(session: Session, ev: Evidence, t: Trace, width: int) -> bool:
    """A real-valued target that a linear combination of some of three or more input
    columns reproduces to float rounding in every training batch fitted, the other columns
    left out (a total that holds the fare among a fare model's features): computed from
    those features, not predicted. An exact sum of every column is a task, not a leak."""
    b = t.batches
    n = b.target_linear_compared
    if width < 3 or n < 4 or b.target_linear_exact < n:
        return False
    text = (
        f"in all {n} training batches fitted, a linear combination of some of the {width} "
        "input columns and a constant reproduces the real-valued target to float rounding "
        "(residual under 1e-4 of its spread), the other columns left out: the target is "
        "computed from those features, not predicted"
    )
    confirm = "fit the target by least squares on the feature columns of one batch; drop the columns that make the fit exact (quantities known only after the target)"
    column_leak(session, ev, t, text, [], confirm)
    return True


def _train_frame(t: Trace) -> Frame | None:
    fws = t.train_forwards()
    return fws[0].frame if fws else None


def _loss_frame(t: Trace) -> Frame | None:
    calls = t.train_loss_calls()
    return calls[0].frame if calls else None
