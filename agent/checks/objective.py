"""Stage 4: whether the objective as written has a minimum worth reaching: a loss that
falls without bound, two players that pursue one goal, a mask that keeps nothing."""

from __future__ import annotations

import math
from statistics import median
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import caller_places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.core.curves import falls_without_bound
from torch_investigate.tools.records import Observation
from torch_investigate.tools.tracefile.trace import Frame, LossCall, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# "several times": how far below its first value a log-likelihood minimized must run
SEVERAL = 3.0


def cooperating_players(session: Session, ev: Evidence, t: Trace, calls: list[LossCall]) -> bool:
    """Two optimizers that take turns (a GAN's discriminator and generator) whose losses
    score the same model's output on the same samples against the same constant label:
    the player that should fool the other is trained toward the label the other gives its
    samples, so both pursue one goal and nothing is adversarial. Unless the generator's
    loss is negated before its backward (the minimax form)."""
    fw = {f.index: f for f in t.forwards}
    opts = t.step_optimizers

    def role(c: LossCall):
        f = fw.get(c.input_forward) if c.input_forward is not None else None
        feeder = fw.get(f.fed_by) if f is not None and f.fed_by is not None else None
        values = c.target.values or {}
        if f is None or feeder is None or len(values) != 1 or not c.target.made_in_code:
            return None
        step = c.step if c.step < len(opts) else None
        opt = opts[step] if step is not None else None
        return (f.model, feeder.model, next(iter(values)), opt, f.fed_grad)

    scored = [(c, r) for c in calls if (r := role(c)) is not None and r[3] is not None]
    for c, (model, feeder, label, opt, trains_feeder) in scored:
        for d, (model2, feeder2, label2, opt2, trains_feeder2) in scored:
            if (model, feeder) != (model2, feeder2) or opt == opt2 or label != label2:
                continue
            # c's gradient reaches the model that made the samples; d's stops at them
            if not trains_feeder or trains_feeder2:
                continue
            if _negated(t, c):
                return False
            text = (
                f"{c.fn} at {c.frame} (stepped by optimizer #{opt}) scores {model}'s output on "
                f"{feeder}'s samples against the label {label}, the same label {d.fn} at "
                f"{d.frame} (stepped by optimizer #{opt2}) trains {model} to give those samples: "
                "the two players pursue one goal"
            )
            ev.find(
                "bad_labels",
                title="the generator is trained toward the label the discriminator gives its samples",
                status="confirmed",
                confidence="high",
                evidence=[runtime(text, c.frame, session, label=label)],
                where=where(session, c.frame) or first_static_location(session, "bad_labels"),
                why="the generator must be scored against the label of real samples (or the discriminator's loss negated); trained toward the fake label it helps the discriminator instead of fooling it",
                confirm=f"use the real label at {c.frame} and compare the generated samples",
            )
            ev.item("target_semantics", "failed", text)
            return True
    return False


def _negated(t: Trace, c: LossCall) -> bool:
    """The loss handed to backward at c's step is the negative of c's value (minimax)."""
    if not isinstance(c.value, float):
        return False
    b = next((b for b in t.backwards if b.step == c.step), None)
    return (
        b is not None
        and isinstance(b.value, float)
        and abs(b.value + c.value) < 1e-6 * (1 + abs(c.value))
    )


def empty_mask(session: Session, ev: Evidence, t: Trace) -> bool:
    """The training loss is exactly zero at most steps, and a boolean mask multiplied into
    the training computation keeps no element at most of its calls: the elements that
    should contribute are masked away (a padding mask passed where a mask of the valid
    positions belongs), so no gradient reaches the model."""
    raw = [v for v in t.raw_curve() if v is not None]
    zeros = sum(1 for v in raw if v == 0.0)
    if not raw or zeros < 0.5 * len(raw):
        return False
    sites = [
        o for o in t.ops if o.kind == "mask_product" and o.count and (o.empty or 0) >= 0.5 * o.count
    ]
    if not sites:
        return False
    o = max(sites, key=lambda x: x.empty or 0)
    text = (
        f"the boolean mask multiplied at {o.frame} keeps no element in {o.empty} of its {o.count} "
        f"training calls ({o.kept} of {o.total} elements over all of them), and the training loss "
        f"is exactly 0 at {zeros} of {len(raw)} steps: nothing contributes, so no gradient flows"
    )
    ev.find(
        "loss_mask_error",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, o.frame, session, empty=o.empty, calls=o.count)],
        where=caller_places.caller_passing(session, o.frame)
        or first_static_location(session, "loss_mask_error")
        or where(session, o.frame),
        why="a mask that keeps nothing (or the opposite of what it should) leaves the loss without the elements it is about: it is zero and teaches nothing",
        confirm=f"print mask.sum() at {o.frame} for a few batches; pass the mask of the positions that count (invert a padding mask)",
    )
    for item in ("contributing_elements",):
        ev.item(item, "failed", text)
    return True


def unbounded(session: Session, ev: Evidence, t: Trace) -> bool:
    """The training loss falls below zero without slowing down: the objective has no
    minimum. The term that runs away is the one whose sign or form is wrong: among the
    scalars the loss adds up, the one that ends far below zero while the others stay
    bounded (the tracer records each term's value by the line that computed it)."""
    if minimized_log_prob(session, ev, t):
        return True
    runaway = falls_without_bound(t.raw_curve())
    if runaway is None:
        return held_by_clamp(session, ev, t)
    culprit, culprit_values, others = None, None, []
    for total in t.loss_terms:
        for term in total.terms:
            vals = [v for _, v in term.values if v is not None]
            if len(vals) < 8:
                continue
            end = median(vals[-max(1, len(vals) // 4) :])
            start = median(vals[: max(1, len(vals) // 4)])
            if (
                end < 0
                and abs(end) >= 4 * max(abs(start), 1e-12)
                and (culprit_values is None or end < culprit_values[1])
            ):
                if culprit is not None:
                    others.append(culprit)
                culprit, culprit_values = term, (start, end)
            else:
                others.append(term)
    text = f"the training loss falls without bound ({runaway.text()}): the objective has no minimum"
    location = None
    if culprit is not None and culprit_values is not None:
        text += (
            f"; of the terms it adds up, the one computed at {culprit.source} runs from "
            f"{fmt(culprit_values[0])} to {fmt(culprit_values[1])}"
        )
        file, _, line = culprit.source.rpartition(":")
        if file and line.isdigit():
            location = where(session, Frame(file=file, line=int(line)))
    calls = t.train_loss_calls()
    ev.find(
        "objective_unbounded",
        status="confirmed",
        confidence="high" if culprit is not None else "medium",
        evidence=[runtime(text, None, session, second=runaway.second, last=runaway.last)],
        where=location
        or first_static_location(session, "objective_unbounded")
        or (where(session, calls[0].frame) if calls else None)
        or loss_source(session, t),
        why="an objective without a minimum is lowered forever by making the wrong term extreme; the weights run away instead of fitting the data",
        confirm="print each term of the loss for a few steps: the runaway term's sign is the opposite of its definition (a KL divergence is never negative)",
    )
    ev.item("loss_scale", "failed", text)
    return True


def loss_source(session: Session, t: Trace):
    """Where the program computed the loss it backpropagates (a custom loss's last line)."""
    if not t.loss_sources:
        return None
    file, _, line = t.loss_sources[0].rpartition(":")
    return where(session, Frame(file=file, line=int(line))) if line.isdigit() else None


def minimized_log_prob(session: Session, ev: Evidence, t: Trace) -> bool:
    """A log-likelihood minimized as it is: the loss backpropagated is a log-probability
    (a log_sigmoid, a log_softmax, the log of a softmax; never above zero), or adds one
    with a plus sign, and it ends below zero, several times its first magnitude, still
    falling. Lowering a log-probability makes what it measures less likely, down to zero
    probability; only other terms (weight decay) bound it, so the curve may slow without
    settling, which `falls_without_bound` does not see. A log-probability inside another
    term (a margin, a product with an advantage or a probability) is not one."""
    raw = [v for v in t.raw_curve() if v is not None and math.isfinite(v)]
    if len(raw) < 16:
        return False
    q = len(raw) // 4
    m1, m2, m3, m4 = (median(raw[i * q : (i + 1) * q]) for i in range(4))
    if not (m4 < m3 < m2 < m1 and m4 < 0 and abs(m4) >= SEVERAL * max(abs(raw[0]), 1e-12)):
        return False
    found = _log_prob_term(t)
    if found is None:
        return False
    what, place = found
    text = (
        f"{what}: lowering the loss lowers that probability, so the training loss runs from "
        f"{fmt(raw[0])} to {fmt(m4)} (median of the last quarter of {len(raw)} steps) and is "
        f"still falling ({fmt(m3)} the quarter before): the objective has no minimum"
    )
    ev.find(
        "objective_unbounded",
        title="a log-likelihood is minimized instead of its negative",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, place, session, first=raw[0], last=m4)],
        where=(where(session, place) if place is not None else None)
        or first_static_location(session, "objective_unbounded")
        or loss_source(session, t),
        why="a model fitted by maximum likelihood minimizes the negative log-probability; minimizing the log-probability itself pushes the probability of the data toward zero, the opposite of fitting it",
        confirm="negate the log-likelihood in the loss (loss = -log_likelihood + ...) and watch the loss settle above zero",
    )
    ev.item("loss_scale", "failed", text)
    return True


def _log_prob_term(t: Trace) -> tuple[str, Frame | None] | None:
    """What is a log-probability in the loss, and the line that gives it its sign: the
    sum that adds it, or the line that made the loss when the loss is one."""
    for site in t.loss_terms:
        for term in site.terms:
            if term.log_prob:
                return (
                    f"the term computed at {term.source} is a log-probability (never above "
                    f"zero), added to the training loss at {site.frame} with a plus sign",
                    site.frame,
                )
    for source in t.log_prob_losses:
        file, _, line = source.rpartition(":")
        frame = Frame(file=file, line=int(line)) if file and line.isdigit() else None
        return (
            f"the training loss made at {source} is a log-probability (never above zero), "
            "backpropagated as it is",
            frame,
        )
    return None


def held_by_clamp(session: Session, ev: Evidence, t: Trace) -> bool:
    """The training loss settles far below zero, and the program clamps a tensor on the
    gradient's path (a log-rate kept within a range): rerun with those clamps lifted, the
    loss falls without bound or reaches minus infinity. The objective has no minimum; only
    the clamp stops the weights running away (a log-likelihood minimized as it is, the
    rate pushed to the clamp's ceiling). A loss with a minimum of its own settles where it
    did, clamp or not."""
    if session.runner is None or not t.counts.get("clamp_on_path"):
        return False
    raw = [v for v in t.raw_curve() if v is not None and math.isfinite(v)]
    if len(raw) < 16:
        return False
    settled = median(raw[-max(1, len(raw) // 4) :])
    if not (settled < 0 and min(raw) <= -SEVERAL * max(abs(raw[0]), 1.0)):
        return False
    run = session.runner.get({"no_clamp": True})
    curve = [v for v in (run.trace.raw_curve() if run and run.trace else []) if v is not None]
    runaway = falls_without_bound(curve)
    to_minus_infinity = any(v == -math.inf for v in curve)
    if runaway is None and not to_minus_infinity:
        return False
    fell = runaway.text() if runaway is not None else "it reaches minus infinity"
    text = (
        f"the training loss settles at {fmt(settled)} (from {fmt(raw[0])}), held there by "
        f"{t.counts['clamp_on_path']} clamp call(s) on the gradient's path; rerun with those "
        f"clamps lifted, the loss falls without bound ({fell}): the objective has no minimum, "
        "and the clamp is all that stops it"
    )
    calls = t.train_loss_calls()
    ev.find(
        "objective_unbounded",
        title="the objective has no minimum: only a clamp holds the loss",
        status="confirmed",
        confidence="high",
        evidence=[
            runtime(text, None, session, settled=settled, first=raw[0]),
            Observation(
                source="intervention",
                text=f"with the clamps on the gradient's path lifted: {fell}",
                values={"interventions": "no_clamp"},
            ),
        ],
        where=first_static_location(session, "objective_unbounded")
        or (where(session, calls[0].frame) if calls else None)
        or loss_source(session, t),
        why="an objective without a minimum is lowered by driving the clamped output to its bound; the model stops where the clamp is, not where it fits the data",
        confirm="print the loss's terms with the clamp removed for a few steps: one runs away; negate the log-likelihood (or fix the term's sign) and the loss settles above its bound",
    )
    ev.item("loss_scale", "failed", text)
    return True
