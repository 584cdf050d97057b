"""Stage 6, the size of each update: learning rate per step (and its schedule), the clipping ratio, weight decay against the gradient."""

from __future__ import annotations

from statistics import median
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import runtime, usable
from torch_investigate.agent.checks.effects import intervene
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.curves import curve_stats
from torch_investigate.tools.records import Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session
from torch_investigate.agent.checks.optimizer import updated_by_hand
from torch_investigate.tools.code.names import ADAPTIVE_OPTIMIZERS, PER_EPOCH_SCHEDULERS


@check(Stage.OPTIMIZER)
def learning_rate(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    lrs = [row[0] for row in t.lrs if row and row[0] is not None]
    if not lrs:
        if not t.optimizers and updated_by_hand(t):
            ev.item(
                "learning_rate",
                "not_applicable",
                "no optimizer object: the step size is set by the hand-written update",
            )
        else:
            ev.item("learning_rate", "skipped", "no optimizer step recorded")
        return
    first, last = lrs[0], lrs[-1]
    if first == 0:
        ev.item("learning_rate", "failed", "the learning rate is 0 at the first step")
        return
    collapse_at = next((i for i, v in enumerate(lrs) if v < 0.01 * first), None)
    sched = t.schedulers[0] if t.schedulers else None
    if (
        collapse_at is not None
        and sched is not None
        and collapse_at < max(20, len(lrs) // 2)
        and sched.steps >= collapse_at
    ):
        per_batch = sched.steps >= 0.8 * max(t.n_steps, 1)
        text = (
            f"the learning rate falls from {fmt(first)} to {fmt(lrs[collapse_at])} by step {collapse_at} ({sched.class_} stepped {sched.steps} times "
            f"in {t.n_steps} optimizer steps{', once per batch' if per_batch else ''}); it ends at {fmt(last)}"
        )
        stats = curve_stats(t.raw_curve())
        ev.find(
            "scheduler_misuse",
            status="confirmed",
            confidence="high" if sched.class_ in PER_EPOCH_SCHEDULERS and per_batch else "medium",
            evidence=[
                runtime(
                    text,
                    sched.step_frame,
                    session,
                    lr=lrs[:50:5],
                    loss_drop=stats.rel_drop if stats else None,
                )
            ],
            where=places.scheduler_site(session, sched)
            or first_static_location(session, "scheduler_misuse"),
            why="once the learning rate is ~0 the remaining steps change nothing: training stops early without saying so",
            confirm=f"print(scheduler.get_last_lr()) each epoch; step {sched.class_} once per epoch (outside the batch loop)",
        )
        ev.item("learning_rate", "failed", text)
        return
    if sched is not None:
        how = f" ({sched.class_})"
    elif min(lrs) == max(lrs):
        how = " (constant)"
    else:  # changed by the program's own code: say so, not "constant"
        how = f" (set by the program, no scheduler: between {fmt(min(lrs))} and {fmt(max(lrs))})"
    ev.item(
        "learning_rate",
        "passed",
        f"lr {fmt(first)} at the first step, {fmt(last)} at step {len(lrs)}{how}",
    )


# "several times slower": how much further the loss must fall without a tuning choice
# (clipping) before the choice counts as what stops learning
SEVERAL = 3.0


@check(Stage.OPTIMIZER)
def clipping(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    if not t.clips:
        ev.item("clipping", "not_applicable", "no gradient clipping on the training path")
        return
    c = t.clips[0]
    if c.n_params_min == 0:
        text = f"clip_grad_{c.kind}_ at {c.frame} received no parameters (an exhausted parameters() generator): clipping does nothing"
        ev.find(
            "tiny_grad_clip",
            title="gradient clipping receives no parameters (an exhausted generator)",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, c.frame, session)],
            where=first_static_location(session, "tiny_grad_clip", "optimizer_missing_params")
            or where(session, c.frame),
            why="a generator from model.parameters() is empty after its first use; the clip silently becomes a no-op",
            confirm="pass list(model.parameters()) (or call model.parameters() again) at the clip",
        )
        ev.item("clipping", "failed", text)
        return
    totals = [v for v in c.totals if v is not None and v > 0]
    if not totals:
        ev.item("clipping", "passed", f"clip at {fmt(c.limit)}: no gradient norm recorded")
        return
    ratio = median(min(1.0, c.limit / v) for v in totals)
    frac = c.clipped / max(c.calls, 1)
    detail = f"clip_grad_{c.kind}_({fmt(c.limit)}) at {c.frame}: raw norms median {fmt(median(totals))}; {c.clipped} of {c.calls} steps clipped; updates scaled by a median {fmt(ratio)}"
    if frac >= 0.9 and ratio < 0.1:
        k = c.optimizer if c.optimizer is not None and c.optimizer < len(t.optimizers) else 0
        opt = t.optimizers[k].class_ if t.optimizers else ""
        adaptive = opt.lower().startswith(ADAPTIVE_OPTIMIZERS)
        # the counterfactual keeps what clipping is for (a spike) and drops what it should
        # not do (shrink every step): the clip at the typical norm, not no clip at all (a
        # language model at lr 20 diverges without its clip whatever the threshold was)
        typical = median(totals)
        # of several optimizers, the loss of the one that steps with the clip
        own = c.optimizer
        eff = (
            intervene(
                session,
                {"clip_to": typical},
                f"clipped at the typical norm {fmt(typical)}",
                optimizer=own,
            )
            if c.kind == "norm"
            else intervene(session, {"no_clip": True}, "without clipping", optimizer=own)
        )
        # a tuning choice is a defect only when it makes learning fail: the loss does not
        # fall as written, or falls several times further without the clip; a clip that
        # merely slows a run that learns is an experiment for stage 8
        stats = curve_stats(t.optimizer_curve(own))
        fails = stats is not None and stats.rel_drop < 0.2
        fall = (
            (eff.first - eff.base_final, eff.first - eff.iv_final)
            if None not in (eff.first, eff.base_final, eff.iv_final)
            else None
        )
        much_faster = fall is not None and fall[1] > 0 and fall[1] >= SEVERAL * max(fall[0], 0.0)
        confirmed = eff.improved and (fails or much_faster)
        ev.find(
            "tiny_grad_clip",
            status="confirmed" if confirmed else "plausible",
            confidence="high" if confirmed else "low",
            evidence=[
                runtime(
                    detail, c.frame, session, limit=c.limit, median_norm=median(totals), scale=ratio
                ),
                eff.observation(),
            ],
            where=places.literal_of(
                session,
                c.frame,
                "max_norm" if c.kind == "norm" else "clip_value",
                position=1,
                value=c.limit,
            )
            or where(session, c.frame)
            or first_static_location(session, "tiny_grad_clip"),
            why=f"every step is clipped to {fmt(ratio)} of its size, so the effective learning rate is that much smaller"
            + (f" ({opt} rescales gradients, which softens this)" if adaptive else ""),
            confirm=f"log the value clip_grad_norm_ returns for a few steps; raise max_norm above the typical norm ({fmt(median(totals))}) or remove the clip and compare",
        )
        if confirmed:
            ev.item("clipping", "failed", detail)
            return
    ev.item("clipping", "passed", detail)


@check(Stage.OPTIMIZER)
def weight_decay(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    wds = [g.weight_decay or 0.0 for o in t.optimizers for g in o.param_groups]
    if not wds or max(wds) == 0:
        ev.item("weight_decay", "not_applicable", "no weight decay")
        return
    wd = max(wds)
    shrunk = [
        p
        for p in t.parameters
        if p.in_optimizer
        and p.weight_norm_start
        and p.weight_norm_end is not None
        and p.numel > 1
        and p.weight_norm_end < 0.5 * p.weight_norm_start
    ]
    stats = curve_stats(t.raw_curve())
    flat = stats is not None and stats.rel_drop < 0.2
    detail = f"weight_decay {fmt(wd)}; {len(shrunk)} weight tensors lost more than half their norm over the run"
    if wd >= 0.05 and shrunk and flat:
        eff = intervene(session, {"weight_decay_scale": 0.0}, "with weight decay off")
        if eff.improved:
            p = shrunk[0]
            ev.find(
                "excessive_weight_decay",
                status="confirmed",
                confidence="medium",
                evidence=[
                    runtime(
                        f"{detail} ({p.name}: {fmt(p.weight_norm_start)} -> {fmt(p.weight_norm_end)}) while the loss stayed flat",
                        t.optimizers[0].frame,
                        session,
                    ),
                    eff.observation(),
                ],
                where=first_static_location(session, "excessive_weight_decay")
                or places.literal_of(session, t.optimizers[0].frame, "weight_decay")
                or where(session, t.optimizers[0].frame),
                why="the decay term outweighs the gradient, pulling every weight toward zero faster than the data can push it",
                confirm="compare |weight_decay * w| with |grad| per layer for a few steps; lower weight_decay",
            )
            ev.item("weight_decay", "failed", detail)
            return
    ev.item("weight_decay", "passed", detail)
