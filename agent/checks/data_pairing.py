"""Stage 2, pairing: do targets still belong to their inputs?

A permutation control that does not depend on the program's hyperparameters: the first
few training batches are fitted with a reference optimizer (Adam at a few small step
sizes, in place of the program's update) once with the real targets and once with the
targets deliberately shuffled, and the loss is measured on an unseen batch after every
update. Real pairs must transfer to the unseen batch better than shuffled ones:
memorizing is not learning. A training loss that falls proves nothing (it falls on
shuffled pairs too); an evaluation loss that falls over the run does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.common import (
    baseline_trace,
    cross_broadcast_losses,
    cut_parameters,
    first_static_location,
    fmt,
    loader_location,
    numerically_dead,
)
from torch_investigate.tools.records import Observation, Stage
from torch_investigate.tools.trace_models import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.runs import Run
    from torch_investigate.agent.session import Session

REFERENCE_LRS = (1e-3, 1e-2)
POOL = 8  # training batches fitted; the next one is the unseen batch
# An unseen batch's loss must improve by this much more with real pairs than with
# shuffled ones (relative to its first value) for the pairs to count as carrying signal.
MARGIN = 0.03
# The run's own evaluation falling by this much says the pairs carry information.
EVAL_LEARNS = 0.05
MIN_STEPS = 40  # fewer reference steps cannot show misaligned pairs
# Misaligned pairs are memorized but do not transfer; a model that cannot even lower the
# pool's training loss this much says nothing about the pairs.
FITS = 0.1


@dataclass
class Transfer:
    lr: float
    fit: float  # relative fall of the training loss on the pool
    gain: float  # relative fall of the unseen batch's loss (best of the second half)
    first: float
    best: float
    steps: int


def _transfer(run: Run, lr: float) -> Transfer | None:
    t = run.trace
    if t is None:
        return None
    curve = [v for v in t.raw_curve() if v is not None and math.isfinite(v)]
    held = [v for v in t.holdout_losses if v is not None and math.isfinite(v)]
    if len(curve) < 10 or len(held) < 10:
        return None
    k = max(1, len(curve) // 10)
    fit = (sum(curve[:k]) / k - sum(curve[-k:]) / k) / (abs(curve[0]) + 1e-12)
    best = min(held[len(held) // 2 :])
    return Transfer(lr, fit, (held[0] - best) / (abs(held[0]) + 1e-12), held[0], best, len(curve))


def _confound(session: Session, t: Trace) -> str | None:
    """What else would make real and shuffled pairs transfer alike."""
    hists = [h for h in t.batches.target_values_per_batch if h]
    if len(hists) >= 4 and sum(1 for h in hists if len(h) == 1) >= 0.75 * len(hists):
        return "the training batches hold a single class each (the pool would too)"
    probe = t.probes.get("forward")
    if probe is not None and probe.status == "ok" and probe.independent is False:
        return "the forward mixes samples (stage 3)"
    if (
        probe is not None
        and probe.status == "ok"
        and (probe.ignores_input or (probe.inputs_differ and probe.rows_identical))
        and numerically_dead(t) is None
    ):
        return "the forward ignores its input (stage 3)"
    if cross_broadcast_losses(t) or any(b.broadcast_in_graph for b in t.backwards):
        # the loss no longer pairs a prediction with its own target: shuffling cannot change it
        return "the loss compares every prediction with every target (stage 3)"
    if cut_parameters(t):
        return "part of the model receives no gradient (stage 5)"
    if any(c.count >= 2 for c in t.created_in_forward):
        return "layers are created anew in every forward (stage 5)"
    return None


def _evaluation_learns(t: Trace) -> str | None:
    """The run's own evaluation loss falls over training: the pairs carry information."""
    passes = t.eval_curve()
    if len(passes) < 2 or passes[-1][0] <= passes[0][0]:
        return None
    (s0, first), (s1, best) = passes[0], min(passes[1:], key=lambda p: p[1])
    if first > 0 and (first - best) / first >= EVAL_LEARNS:
        return (
            f"the program's own evaluation loss falls from {fmt(first)} (after {s0} steps) to "
            f"{fmt(best)} (after {s1} steps): the targets carry information about the inputs"
        )
    return None


@check(Stage.DATA)
def pairing(session: Session, ev: Evidence) -> None:
    t = baseline_trace(session) if not session.options.static_only else None
    if t is None or not t.ran_training:
        return
    learns = _evaluation_learns(t)
    if learns:
        ev.item("pairing", "passed", learns)
        return
    blocker = _confound(session, t)
    if blocker:
        ev.item(
            "pairing",
            "skipped",
            f"the permutation test would be confounded: {blocker}; pairing is tested once that is fixed",
        )
        return
    if not t.train_loss_calls():
        ev.item(
            "pairing",
            "skipped",
            "no recognised loss call: the permutation test needs the loss on an unseen batch",
        )
        return
    if not t.optimizers:
        ev.item(
            "pairing",
            "skipped",
            "the update is hand-written: a reference optimizer cannot take its place for the permutation test",
        )
        return
    _permutation_test(session, ev, t)


def _permutation_test(session: Session, ev: Evidence, t: Trace) -> None:
    loader = t.train_loader()
    site = loader.site if loader else None
    # the pool and the unseen batch must come from one pass over the data
    per_epoch = (
        math.ceil(loader.dataset_len / loader.batch_size)
        if loader is not None and loader.dataset_len and loader.batch_size
        else None
    )
    pool = max(1, min(POOL, per_epoch // 2)) if per_epoch else POOL
    base = {"fixed_batch": True, "holdout": True, "fixed_pool": pool}
    pairs: list[tuple[Transfer, Transfer]] = []
    for lr in REFERENCE_LRS:  # the next step size only when this one shows no transfer
        real_run, shuffled_run = session.runner.many(
            [{**base, "reference_lr": lr}, {**base, "reference_lr": lr, "shuffle_targets": True}],
            train_loader=site,
        )
        real, shuffled = _transfer(real_run, lr), _transfer(shuffled_run, lr)
        if real is not None and shuffled is not None:
            pairs.append((real, shuffled))
            if real.gain > shuffled.gain + MARGIN:
                break
    if not pairs:
        fws = t.train_forwards()
        rows = fws[0].inputs[0].shape[0] if fws and fws[0].inputs and fws[0].inputs[0].shape else 0
        if rows and t.batches.train_unique and t.batches.train_unique <= rows:
            ev.item(
                "pairing",
                "not_applicable",
                f"every step trains on the same {rows} rows (full-batch training): there is no unseen batch to test transfer on",
            )
            return
        ev.item("pairing", "skipped", "the reference fits produced no loss on an unseen batch")
        return
    transfers = [rs for rs in pairs if rs[0].gain > rs[1].gain + MARGIN]
    # the step size that shows transfer, else the one that fits the pool best
    real, shuffled = transfers[0] if transfers else max(pairs, key=lambda rs: rs[0].fit)
    text = (
        f"fitting the first {pool} training batches with Adam (lr {real.lr:g}, in place of the "
        f"program's update): on an unseen batch the loss improves {fmt(100 * real.gain)}% with the "
        f"real pairs ({fmt(real.first)} -> {fmt(real.best)}) and {fmt(100 * shuffled.gain)}% with "
        f"deliberately shuffled pairs; the training loss falls {fmt(100 * real.fit)}% and "
        f"{fmt(100 * shuffled.fit)}% respectively"
    )
    if real.gain > shuffled.gain + MARGIN:
        ev.item("pairing", "passed", text)
        return
    if real.fit < FITS:
        # real and shuffled pairs cannot differ when nothing is learned; whatever stops the
        # model from fitting, the later stages (and stage 8: initialization, capacity) say
        ev.item(
            "pairing",
            "not_applicable",
            f"{text}; the reference optimizer cannot fit even the pool of training batches: "
            "the pairs cannot be tested until the model can fit (the later stages examine why)",
        )
        return
    steps = min(real.steps, shuffled.steps)
    if steps < MIN_STEPS:
        ev.item(
            "pairing",
            "skipped",
            f"{text}; the program trains only {steps} steps, too few to tell real pairs from shuffled ones",
        )
        return
    ev.find(
        "label_misaligned",
        status="confirmed",
        confidence="medium",
        evidence=[
            Observation(
                source="intervention",
                text=text,
                values={
                    "heldout_gain_real": real.gain,
                    "heldout_gain_shuffled": shuffled.gain,
                    "reference_lr": real.lr,
                },
            )
        ],  # fmt: skip
        where=first_static_location(session, "label_misaligned")
        or places.dataset_class(session, loader.dataset_class if loader else None)
        or places.batch_source(session)
        or loader_location(session, t),
        why="when targets no longer belong to their inputs the model can only memorize; nothing it learns transfers to new samples",
        confirm="print a few (input, target) pairs next to their source records; check both are indexed by the same permutation",
    )
    ev.item("pairing", "failed", text)
