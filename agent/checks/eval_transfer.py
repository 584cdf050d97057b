"""Stage 2, evaluation rows that do not relate to their targets as training rows do.

The pairing test shows the model predicting training rows it has not been trained on
(its own first pass over the data, or the reference fits). When the program's training
loss falls as well, and yet its own evaluation never beats the trivial answer at any pass
(the majority label's accuracy, the targets' median's error), the evaluation rows reach
the model transformed otherwise than the training rows (a vocabulary or encoder fit anew
on them, a step of the training pipeline left out). Moments alike in both splits
(train_eval_inputs) do not rule this out: a column order refit on the evaluation data
keeps every column's distribution and changes what each one means."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.eval_order import order_repairs
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.metric_bound import saturated_compares, tracer_learns
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.pairing_fresh import (
    CHANCE_SE,
    EVAL_LEARNS,
    own_accuracy,
    own_error,
)
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# Without its own first pass as a held-out reading, the program's training must show it
# learns more than the targets' distribution: its last losses at most this share of the
# level the best constant reaches (a model whose training fails scores trivially everywhere).
TRAINS = 0.5


def evaluation_untransferred(
    session: Session, ev: Evidence, t: Trace, train_side: str, floor: float | None = None
) -> bool:
    """Confirm a train/evaluation mismatch when the training rows carry their targets
    (`train_side` says how that was shown: the program's own fresh batches, else the
    reference fits with `floor`, the loss's marginal level in the curve's units) but the
    program's evaluation stays trivial."""
    if any(f.output_read and f.training and f.mode_layers is not False for f in t.eval_forwards()):
        # evaluated with dropout or BatchNorm in training mode: its numbers are the mode's
        # doing as much as the rows' (stage 7 reads the mode)
        return False
    if t.eval_outside is not None or tracer_learns(t) or saturated_compares(t):
        # predictions that are no labels, that the tracer finds right on the same
        # evaluation rows far more often than the program counts, or that a threshold
        # beyond the output's range makes whatever the model says: a metric question
        return False
    if len(t.optimizers) > 1 or len({str(c.frame) for c in t.train_loss_calls()}) > 1:
        # several losses or optimizers (two heads, a GAN): the training that carries its
        # targets need not be the one the evaluation scores (an untrained second head)
        return False
    acc, err = own_accuracy(t), own_error(t)
    trivial = (
        acc.text()
        if acc is not None and acc.stays
        else err.text()
        if err is not None and not err.learns
        else None
    )
    curve = t.curve()
    if trivial is None or len(curve) < 10:
        return False
    if acc is not None and acc.stays and not _fresh_accuracy_learns(t, acc.majority):
        # a loss below the targets' level with an accuracy still at the majority share is
        # a model early in learning: the evaluation's accuracy then says nothing new
        return False
    k = max(1, len(curve) // 10)
    last = sum(curve[-k:]) / k
    if floor is not None:
        if not (floor > 0 and last <= TRAINS * floor):
            return False
        train_side += (
            f"; the program's own training loss ends at {fmt(last)}, under "
            f"{fmt(100 * TRAINS)}% of the {fmt(floor)} the best constant reaches"
        )
    if order_repairs(session, t):
        # predictions from a shuffling loader scored against its labels in another order,
        # and the loader in order repairs the evaluation: rows paired with other rows'
        # labels score trivially whatever their inputs (a metric question, stage 7)
        return False
    text = (
        f"{train_side}; yet {trivial}: the evaluation rows do not relate to their targets as the training "
        "rows do"
    )
    fws = t.eval_forwards()
    frame = fws[0].frame if fws else None
    ev.find(
        "preprocessing_mismatch",
        status="confirmed",
        confidence="medium",
        evidence=[runtime(text, frame, session)],
        where=first_static_location(session, "preprocessing_mismatch")
        or places.input_origin(session, frame, transformed=True)
        or where(session, frame),
        why="the model is scored on inputs prepared otherwise than the ones it learned from, so what it learned does not apply to them",
        confirm="prepare a few evaluation rows through the training pipeline (the same vocabulary, encoders and scalers fitted on training data) and score them again",
    )
    ev.item("train_eval_inputs", "failed", text)
    return True


def _fresh_accuracy_learns(t: Trace, majority: float) -> bool:
    """The training batches of the first pass over the data, each classified before the
    model trained on it, are right clearly more often than the majority share; True
    when the run does not tell (no loader, no class-index loss)."""
    loader = t.train_loader()
    if loader is None or not loader.dataset_len or not loader.batch_size or not t.train_correct:
        return True
    per_epoch = math.ceil(loader.dataset_len / loader.batch_size)
    fresh = [(h, n) for step, h, n in t.train_correct if per_epoch // 2 <= step < per_epoch]
    n = sum(m for _, m in fresh)
    if not n:
        return True
    right = sum(h for h, _ in fresh) / n
    se = math.sqrt(majority * (1 - majority) / n)
    return right >= majority + max(EVAL_LEARNS * (1 - majority), CHANCE_SE * se)
