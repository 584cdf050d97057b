"""Stage 8: optimization choices, reached only when stages 1-7 are coherent — a
learning-rate sweep on a fixed batch, initialization and activation statistics,
per-layer gradient norms, and a fixed-batch overfit test for capacity."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import fixed_batch, places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import runtime, stuck_symmetric, usable
from torch_investigate.agent.checks.effects import compared_steps
from torch_investigate.agent.checks.locations import (
    first_static_location,
    init_location,
    model_location,
    where,
)
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.curves import curve_stats
from torch_investigate.tools.records import Observation, Stage
from torch_investigate.tools.taxonomy import taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session
    from torch_investigate.tools.tracefile.trace import Trace

ITEMS = ("lr_sweep", "activations", "gradient_flow", "capacity")
SCALES = (0.1, 1.0, 10.0)
# A fit judged on fewer steps says nothing (a script that trains 10 steps cannot show
# that its model fits a batch): below this, stage 8 does not judge the fit.
MIN_FIT_STEPS = 40


def _unstable(session: Session) -> bool:
    """The run as written spikes or bounces (its loss curve, from stage 1)."""
    run = session.baseline()
    raw = run.trace.raw_curve() if run and run.trace else []
    finite = [v for v in raw if v is not None and math.isfinite(v)]
    if len(finite) < 10:
        return False
    stats = curve_stats(raw)
    return max(finite[3:]) > 1.5 * abs(finite[0]) or (stats is not None and stats.spread > 0.25)


@check(Stage.OPTIMIZATION)
def activations(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    # symmetric or all-zero rows only matter when there are hidden units behind them
    matrices = [s for s in t.init_stats if len(s.get("shape", [])) >= 2]
    hidden = len(matrices) >= 2 or len(t.init_stats) >= 3  # a tied autoencoder reuses one matrix
    sym = [s for s in matrices if hidden and stuck_symmetric(s)]
    # a frozen weight is set on purpose (a whitening or a fixed projection from the data)
    huge = [s for s in matrices if s.get("std", 0.0) > 5.0 and s.get("requires_grad") is not False]
    if sym or huge:
        s = (sym or huge)[0]
        what = (
            ("all zeros" if s.get("std") == 0.0 else "all rows identical")
            + " (every unit computes the same thing)"
            + (
                f"; at the end of the run its {s['end_rows_moved']} moved rows hold "
                f"{s['end_distinct_moved']} distinct values: the units never came to differ"
                if s.get("end_rows_moved")
                else ""
            )
            if s in sym
            else f"std {fmt(s['std'])}"
        )
        text = f"{s['name']} {s['shape']} at the first forward: {what}"
        ev.find(
            "bad_initialization",
            status="confirmed",
            confidence="high" if sym else "medium",
            evidence=[runtime(text, None, session, **{k: v for k, v in s.items() if k != "name"})],
            where=first_static_location(session, "bad_initialization")
            or _init_site(session, t, s["name"])
            or (init_location(session, t.models[0].class_) if t.models else None)
            or model_location(session, t),
            why="units that start identical receive identical gradients and stay identical; a huge scale saturates activations from the first step",
            confirm=f"print({s['name']}.std(), {s['name']}.unique(dim=0).shape) after construction; re-initialize with the layer's default init",
        )
        ev.item("activations", "failed", text)
        return
    dead = [a for a in t.activations if a.kind == "relu" and a.dead_units > 0.9]
    sat = [a for a in t.activations if a.kind in ("sigmoid", "tanh") and a.inactive > 0.9]
    if dead or sat:
        a = (dead or sat)[0]
        text = (
            f"{fmt(100 * a.dead_units)}% of ReLU units at {a.frame} are zero for every sample of the batch"
            if a in dead
            else f"{fmt(100 * a.inactive)}% of {a.kind} outputs at {a.frame} are saturated"
        )
        at_init = (a.first_dead if a in dead else a.first_inactive) >= 0.9 and a.first_step == 0
        if not at_init:
            # units that died during training: a too-large step kills them as often as
            # anything else, so the learning-rate sweep speaks first
            ev.facts.late_dead = (a, text)
            ev.item(
                "activations",
                "passed",
                f"{text}, though not at initialization; the learning-rate sweep decides why",
            )
            return
        ev.find(
            "dead_activations",
            status="confirmed",
            confidence="medium",
            evidence=[
                runtime(text, a.frame, session, fraction=a.dead_units if a in dead else a.inactive)
            ],
            # dead from the first forward: the initialization put them there
            where=(
                init_location(session, t.models[0].class_)
                if t.models and a.first_dead >= 0.9
                else None
            )
            or where(session, a.frame),
            why=taxonomy().category("dead_activations").why,
            confirm="log the fraction of zero ReLU outputs per layer over a few batches; check the init scale and learning rate",
        )
        ev.item("activations", "failed", text)
        return
    relus = [a for a in t.activations if a.kind == "relu"]
    ev.item(
        "activations",
        "passed",
        f"initial weights are not symmetric or degenerate; {len(relus)} ReLU sites, max dead fraction {fmt(max((a.dead_units for a in relus), default=0.0))}",
    )


# Over the whole run the weights must move by at least this share of their norm for the
# update to be able to move the loss at all.
MOVES_WEIGHTS = 1e-3
ORDINARY_STEP = 1e-2  # |Δw| / |w| of one step of a run that learns at a usual pace


def _negligible_update(session: Session, ev: Evidence, t: Trace) -> bool:
    """A loss that does not fall while every step changes the weights by a vanishing share
    of their norm: summed over the run the weights move by less than MOVES_WEIGHTS. One
    fixed batch is then fitted with the learning rate scaled toward an ordinary step
    size; the step size is the cause when a larger one fits what the configured one
    cannot even move."""
    if ev.facts.symptom not in ("flat_loss", "slow_progress") or not t.optimizers:
        return False
    ratios = sorted(
        p.update.mean_ratio for p in t.parameters if p.in_optimizer and p.update.mean_ratio
    )
    if not ratios or not t.n_steps:
        return False
    ratio = ratios[len(ratios) // 2]
    moved = ratio * t.n_steps
    if moved >= MOVES_WEIGHTS:
        return False
    top = 10.0 ** min(7, max(2, round(math.log10(ORDINARY_STEP / ratio)) + 1))
    loader = t.train_loader()
    site = loader.site if loader else None
    fits = fixed_batch.sweep(session, site, (1.0, top / 100, top / 10, top))
    parts = [
        f"lr x{s:g}: {fmt(f[0])} -> {fmt(f[1])}{' (diverges)' if f[2] else ''}"
        for s, f in sorted(fits.items())
    ]
    text = (
        f"each step changes the weights by a median {fmt(ratio)} of their norm, "
        f"{fmt(moved)} over the {t.n_steps} steps of the run, while the loss "
        f"{'stays flat' if ev.facts.symptom == 'flat_loss' else 'falls slowly'}; one fixed batch "
        f"fitted for the same steps: {'; '.join(parts)}"
    )
    good = [s for s, f in fits.items() if s > 1.0 and fixed_batch.fits_well(f)]
    if not good or fixed_batch.moves(fits[1.0]):
        ev.item(
            "lr_sweep",
            "not_applicable",
            f"{text}: no larger step fits the batch either, so the step size cannot be judged here",
            untested=True,
        )
        return True
    opt = t.optimizers[0]
    ev.find(
        "lr_too_low",
        status="confirmed",
        confidence="high",
        evidence=[
            Observation(
                source="intervention", text=text, values={"fits_at": good, "update_ratio": ratio}
            )
        ],
        where=first_static_location(session, "lr_too_low")
        or places.literal_of(session, opt.frame, "lr", position=1)
        or where(session, opt.frame),
        why=f"an update this small cannot move the loss within the run: training is effectively off; x{min(good):g} of the learning rate fits the same batch",
        confirm=f"print (lr * grad).norm() / weight.norm() for a few steps; rerun with the learning rate x{min(good):g}",
    )
    ev.item("lr_sweep", "failed", text)
    return True


@check(Stage.OPTIMIZATION)
def lr_sweep(session: Session, ev: Evidence) -> None:
    """Fit one fixed batch at lr x0.1, x1, x10; widen the sweep when none of them works."""
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    if ev.items.get("activations", ("",))[0] == "failed":
        ev.item(
            "lr_sweep",
            "not_applicable",
            "dead or degenerate units (see activations) decide the fit before the learning rate does",
        )
        return
    if _negligible_update(session, ev, t):
        return
    loader = t.train_loader()
    site = loader.site if loader else None
    fits = fixed_batch.sweep(session, site, SCALES)
    steps = fixed_batch.fit_steps(session, site)
    if steps < MIN_FIT_STEPS:
        ev.item(
            "lr_sweep",
            "not_applicable",
            f"the training path runs only {steps} steps on a fixed batch: too few to judge a learning rate",
        )
        return
    if len({(f[0], f[1], f[2]) for f in fits.values()}) == 1:
        ev.item(
            "lr_sweep",
            "not_applicable",
            "scaling the optimizer's learning rate x0.1 and x10 changed nothing in the fixed-batch loss: "
            "the update does not go through the optimizer's lr (a hand-written step), so the sweep cannot judge it",
        )
        return
    one = fits[1.0]
    if not fixed_batch.fits_well(one):
        fixed_batch.widen(session, site, fits)
    fits = dict(sorted(fits.items()))
    ev.facts.fixed_batch_fits = fits
    parts = [
        f"lr x{s:g}: {fmt(f[0])} -> {fmt(f[1])}{' (diverges)' if f[2] else ''}"
        for s, f in fits.items()
    ]
    text = "fixed-batch loss after the same steps: " + "; ".join(parts)
    good = [s for s, f in fits.items() if fixed_batch.fits_well(f)]
    opt = t.optimizers[0] if t.optimizers else None
    loc = (
        first_static_location(session, "lr_too_high", "lr_too_low")
        or (places.literal_of(session, opt.frame, "lr", position=1) if opt else None)
        or (where(session, opt.frame) if opt else None)
    )
    learns = ev.facts.symptom == "healthy" and not any(
        s in ("flat_loss", "slow_progress") for s in ev.facts.phase_symptoms
    )
    if learns and not fixed_batch.fits_well(one) and not one[2] and good:
        # a faster fit at another step size is a tuning choice while the run as written
        # learns: a defect only when the configured step makes learning fail (the loss
        # does not fall in some phase of the run, the configured step diverges, the loss
        # bounces)
        ev.item(
            "lr_sweep",
            "passed",
            f"{text}; the run as written learns at its own step size (stage 1: "
            f"{ev.facts.symptom_evidence}), so another step size is a stage-8 experiment, "
            "not a defect",
        )
        return
    ten_x_better = [
        s
        for s in good
        if s < 1.0 and fits[s][1] is not None and one[1] is not None and fits[s][1] < 0.1 * one[1]
    ]
    if fixed_batch.fits_well(one) and ten_x_better and _unstable(session):
        ev.find(
            "lr_too_high",
            status="confirmed",
            confidence="medium",
            evidence=[
                Observation(
                    source="intervention",
                    text=text
                    + f"; as written the training loss is unstable ({ev.facts.symptom_evidence})",
                )
            ],
            where=loc,
            why=f"at the configured learning rate the loss bounces; x{max(ten_x_better):g} of it fits the same batch ten times better",
            confirm=f"rerun with the learning rate multiplied by {max(ten_x_better):g} and compare the first {compared_steps(session)} steps",
        )
        ev.item("lr_sweep", "failed", text)
        return
    if not fixed_batch.fits_well(one) and good:
        lower = [s for s in good if s < 1.0]
        higher = [s for s in good if s > 1.0]
        if lower and (one[2] or not fixed_batch.moves(one)) and (one[2] or not higher):
            ev.find(
                "lr_too_high",
                status="confirmed",
                confidence="high" if one[2] else "medium",
                evidence=[Observation(source="intervention", text=text, values={"fits_at": lower})],
                where=loc,
                why=f"at the configured learning rate the steps overshoot{' and the loss diverges' if one[2] else ''}; x{max(lower):g} of it fits the same batch",
                confirm=f"rerun with the learning rate multiplied by {max(lower):g} (or with warm-up) and compare the first {compared_steps(session)} steps",
            )
            ev.item("lr_sweep", "failed", text)
            return
        if higher and not one[2] and not fixed_batch.moves(one):
            ev.find(
                "lr_too_low",
                status="confirmed",
                confidence="high",
                evidence=[
                    Observation(source="intervention", text=text, values={"fits_at": higher})
                ],
                where=loc,
                why=f"at the configured learning rate the loss barely moves; x{min(higher):g} of it fits the same batch",
                confirm=f"rerun with the learning rate multiplied by {min(higher):g} and compare the first {compared_steps(session)} steps",
            )
            ev.item("lr_sweep", "failed", text)
            return
    ev.item("lr_sweep", "passed", text)
    late = ev.facts.late_dead
    if late is not None:
        a, dead_text = late
        ev.find(
            "dead_activations",
            status="confirmed",
            confidence="medium",
            evidence=[
                runtime(
                    dead_text + ", and the learning rate is not to blame: " + text, a.frame, session
                )
            ],
            where=where(session, a.frame),
            why=taxonomy().category("dead_activations").why,
            confirm="log the fraction of zero ReLU outputs per layer over a few batches; check the init scale and the activation choice",
        )
        ev.item("activations", "failed", dead_text)


# An update that moves a weight by a tenth of its norm in one step is a step out of control.
LARGE_STEP = 0.1


@check(Stage.OPTIMIZATION)
def gradient_flow(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    failed = [i for i in ("activations", "lr_sweep") if ev.items.get(i, ("",))[0] == "failed"]
    if failed:
        ev.item(
            "gradient_flow",
            "not_applicable",
            f"gradient norms follow the problem found by {', '.join(failed)}",
        )
        return
    ws = [
        p
        for p in t.parameters
        if p.registered and p.grad.mean_norm is not None and len(p.shape) >= 2
    ]
    if len(ws) < 2:
        ev.item("gradient_flow", "not_applicable", "fewer than two weight matrices with gradients")
        return
    first, last = ws[0].grad.mean_norm or 0.0, ws[-1].grad.mean_norm or 0.0
    big = max(p.grad.max_norm or 0.0 for p in ws)
    text = f"mean gradient norm {fmt(first)} at {ws[0].name} (first) vs {fmt(last)} at {ws[-1].name} (last); largest {fmt(big)}"
    vanishing = last > 0 and first < 1e-4 * last and len(ws) >= 3
    nonfinite = any(p.grad.nonfinite for p in ws)
    # a large norm alone is the loss's scale (a loss summed over a batch of images), which
    # an adaptive optimizer divides out and a learning rate absorbs: it explodes when the
    # gradients are not finite or the steps it makes move the weights by a large fraction
    step = max((p.update.mean_ratio or 0.0) for p in ws)
    exploding = nonfinite or (big > 1e4 and step > LARGE_STEP)
    if big > 1e4 and not exploding:
        text += (
            f"; the steps they make move a weight by at most {fmt(step)} of its norm: "
            "the loss's scale, not an explosion"
        )
    if (vanishing or exploding) and not nonfinite and ev.facts.symptom == "healthy":
        text += (
            f" (largest step {fmt(step)} of a weight's norm); the loss falls as it should "
            "(stage 1), so these norms do not hold learning back"
        )
        ev.item("gradient_flow", "passed", text)
        return
    if vanishing or exploding:
        ev.find(
            "vanishing_or_exploding_gradients",
            status="confirmed",
            confidence="medium",
            evidence=[runtime(text, None, session, first=first, last=last, largest=big)],
            where=model_location(session, t),
            why="gradients that shrink or blow up across depth leave early layers frozen or make steps explode",
            confirm="log per-layer gradient norms for a few steps; check initialization, normalization layers and residual paths",
        )
        ev.item("gradient_flow", "failed", text)
        return
    ev.item("gradient_flow", "passed", text)


def _init_site(session: Session, t, name: str):
    """Where a weight got its initial values: the last in-place write before training."""
    p = t.param(name)
    return where(session, p.init_frame) if p is not None and p.init_frame is not None else None
