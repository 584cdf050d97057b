"""Stage 8, capacity: a model that cannot fit one fixed batch at any scale of its own
update lacks capacity only when the update is not what holds it back (Adam in place of
the program's update does not fit the batch either) and a bigger model of the same
inputs does (a wide network in the model's place fits it). A batch no model fits in the
run's steps (noisy targets, the whole data as one batch) cannot judge capacity."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

# lr_sweep's fits are what capacity reads: its module registers its checks first
from torch_investigate.agent.checks import fixed_batch, optimization  # noqa: F401
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import usable
from torch_investigate.agent.checks.levels import plateau
from torch_investigate.agent.checks.locations import (
    first_static_location,
    init_location,
    model_location,
)
from torch_investigate.agent.checks.numbers import fmt, of_chance
from torch_investigate.agent.core.curves import final_level
from torch_investigate.tools.records import Observation, Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


@check(Stage.OPTIMIZATION)
def capacity(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    fits = ev.facts.fixed_batch_fits
    explained = [i for i in ("lr_sweep", "activations") if ev.items.get(i, ("",))[0] == "failed"]
    if explained:
        ev.item(
            "capacity",
            "not_applicable",
            f"the fit is already explained by {', '.join(explained)}; capacity is judged once that is fixed",
        )
        return
    if not fits:
        ev.item(
            "capacity",
            "not_applicable"
            if ev.items.get("lr_sweep", ("",))[0] == "not_applicable"
            else "skipped",
            "no fixed-batch fit to judge (see lr_sweep)",
        )
        return
    finals = {s: f for s, f in fits.items() if f[1] is not None and not f[2]}
    first = fits[1.0][0]
    if not finals or first is None:
        ev.item("capacity", "skipped", "the fixed-batch runs produced no finite loss")
        return
    best_scale, best = min(finals.items(), key=lambda kv: kv[1][1])
    text = f"the best fixed-batch loss over the sweep is {fmt(best[1])} from {fmt(first)} (lr x{best_scale:g})"
    bootstrapped = [c for c in t.train_loss_calls() if c.target.from_model]
    if bootstrapped:
        c = bootstrapped[0]
        ev.item(
            "capacity",
            "not_applicable",
            f"{text}; the targets of {c.fn} at {c.frame} are computed from a model's output "
            "(bootstrapped TD targets, a teacher, pseudo-labels): a fixed batch has no fixed "
            "answer, so its fit cannot judge capacity",
        )
        return
    moving = fixed_batch.moving_batch(session, t)
    if moving:
        ev.item(
            "capacity",
            "not_applicable",
            f"{text}; {moving}: the program transforms each batch anew (random masks, "
            "augmentation, noise), so the fit has a floor no capacity removes and cannot judge capacity",
        )
        return
    loc = (
        first_static_location(session, "insufficient_capacity")
        or (init_location(session, t.models[0].class_) if t.models else None)
        or model_location(session, t)
    )
    shown = fixed_batch.run_fits(t, first, best[1], settled := final_level(t.raw_curve()))
    if best[1] > 0.5 * abs(first) and shown is not None:
        ev.item(
            "capacity",
            "passed",
            f"{text}; the run itself settles at {fmt(settled)} on the full data, below that{shown}: "
            "the model can fit, the sweep's few steps on one batch do not show it",
        )
        return
    if best[1] > 0.5 * abs(first):
        judged = _capacity_controls(session, text)
        if judged is not None:
            outcome, detail = judged
            ev.item("capacity", outcome, detail, untested=outcome == "not_applicable")
            return
        text += "; a wide network of the same inputs in the model's place fits it: " + _fit_words(
            _wide_fit(session)
        )
        # labels that do not belong to their inputs leave any model unable to fit a batch
        # too: while stage 2's pairing test could not run for that same reason, the fit
        # cannot tell capacity from the pairs
        unfit = ev.facts.pairs_unfit
        ev.find(
            "insufficient_capacity",
            status="plausible" if unfit else "confirmed",
            confidence="medium",
            evidence=[
                Observation(
                    source="intervention",
                    text=text
                    + (
                        f"; the pairs are untested for the same reason (stage 2: {unfit}), so "
                        "targets that do not belong to their inputs would look the same"
                        if unfit
                        else " although every correctness stage passed"
                    ),
                )
            ],
            where=loc,
            why="a model that cannot fit even one fixed batch with a verified update path lacks the capacity (or the right inductive bias) for the task",
            confirm="train on 8 fixed examples for 500 steps; if the loss stays high, widen the model or change its structure",
        )
        ev.item("capacity", "failed", text)
        return
    stuck = _underfit(t)
    if stuck:
        # fitting one batch while the full data stays high is not a capacity problem: it
        # points back at the data (pairs, split, labels); say so, decide nothing here
        ev.notes.append(
            f"{text}, yet on the full training data {stuck}: a model that fits a batch but "
            "not the data points at the data (stage 2), not at its capacity"
        )
    ev.item("capacity", "passed", text + ": the model can fit one batch")


# The optimizer a capacity control fits the batch with, in place of the program's: Adam at
# these step sizes (the pairing test's reference fits use the same).
CONTROL_LRS = (1e-3, 1e-2)


def _fit_words(f: tuple) -> str:
    first, last, diverged = f
    return f"{fmt(first)} -> {fmt(last)}{' (diverges)' if diverged else ''}"


def _train_site(session: Session) -> str | None:
    loader = session.baseline().trace.train_loader()
    return loader.site if loader else None


def _adam_fits(session: Session) -> list[tuple[float, tuple]]:
    runs = session.runner.many(
        [{"fixed_batch": True, "reference_lr": lr} for lr in CONTROL_LRS],
        train_loader=_train_site(session),
    )
    return [
        (lr, (*fixed_batch.fit(r), _still_falling(r)))
        for lr, r in zip(CONTROL_LRS, runs, strict=True)
    ]


def _still_falling(run) -> bool:
    """The fit's loss still falls over its second half (by a tenth of where that half
    starts): the model has not met a floor, only run out of steps."""
    raw = [v for v in (run.trace.raw_curve() if run.trace else []) if v is not None]
    half = raw[len(raw) // 2 :]
    if len(half) < 8:
        return False
    k = max(2, len(half) // 4)
    start, end = sum(half[:k]) / k, sum(half[-k:]) / k
    return start - end > 0.1 * abs(start)


def _wide_fit(session: Session) -> tuple:
    spec = {"fixed_batch": True, "reference_model": True}
    run = session.runner.get(spec, train_loader=_train_site(session))
    return fixed_batch.fit(run)


def _capacity_controls(session: Session, text: str) -> tuple[str, str] | None:
    """A model that cannot fit one batch at any scale of its own update lacks capacity
    only if the update is not what holds it back and a bigger model of the same inputs
    does fit: the same model fitted with Adam (in place of the program's update), then a
    wide network in the model's place (tools/trace/interventions/reference_model.py).
    (outcome, detail) when the controls decide against capacity or cannot decide; None
    when they show it."""
    fits = [(lr, f) for lr, f in _adam_fits(session) if f[0] is not None]
    adam = [(lr, f[:3]) for lr, f in fits]
    falling = [lr for lr, f in fits if f[3] and not f[2]]
    good = [(lr, f) for lr, f in adam if fixed_batch.fits_well(f)]
    if good:
        lr, f = good[0]
        return (
            "passed",
            f"{text}; the same model fitted with Adam (lr {lr:g}, in place of the program's "
            f"update) fits the batch: {_fit_words(f)}. It has the capacity; what holds the "
            "fit back is the update (a stage-8 experiment, not a defect of the model)",
        )
    tried = "; ".join(f"Adam lr {lr:g}: {_fit_words(f)}" for lr, f in adam)
    if falling:
        return (
            "not_applicable",
            f"{text}; with Adam in place of the program's update ({tried}) the model's loss "
            f"on the batch still falls over the fit's second half (lr {falling[0]:g}): it has "
            "met no floor, only run out of steps, so the fit cannot judge capacity",
        )
    wide = _wide_fit(session)
    if (
        fixed_batch.fits_well(wide)
        and wide[1] is not None
        and wide[1] < 0.5 * min((f[1] for _, f in adam if f[1] is not None), default=math.inf)
    ):
        return None
    return (
        "not_applicable",
        f"{text}; with Adam in place of the program's update the model does not fit it "
        f"either ({tried or 'no finite loss'}), nor does a wide network of the same inputs "
        f"in its place ({_fit_words(wide)}): the batch holds more than any model fits in "
        "these steps (noisy targets, a batch of the whole data), so the fit cannot judge "
        "capacity",
    )


def _underfit(t) -> str | None:
    """The training loss plateaued far above what an informed classifier reaches."""
    p = plateau(t, above=0.3, flat=0.1)
    if p is None:
        return None
    level, chance = p
    return f"the training loss plateaus at {fmt(level)} ({of_chance(level, chance)})"
