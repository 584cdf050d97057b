"""Which of two confirmed defects is the cause: their fixes applied together.

Each defect confirmed by an intervention carries its fix (the runtime change that
removed it). When two such defects compete for the root cause, one more run applies
both fixes. If fixing the second on top of the first changes the loss little while the
reverse changes it a lot, the second follows from the first (raw inputs look harmful
only while BatchNorm runs in eval mode; clipping bites only while a wrong loss inflates
the gradients): the first is the cause, and the second is demoted to a suspicion with
that observation. Decided by runs, not by a table of categories.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from torch_investigate.agent.core.curves import bounded_curve, final_level
from torch_investigate.tools.intervention_effect import InterventionValue
from torch_investigate.tools.records import Finding, Observation

if TYPE_CHECKING:
    from torch_investigate.agent.core.runs import Run
    from torch_investigate.agent.core.session import Session

# Fixing the other on top changes the settled loss by less than this (relative to the
# larger of the two): it adds nothing. By more than MATTERS: it still matters.
ADDS_NOTHING, MATTERS = 0.05, 0.15


def fix_of(f: Finding) -> tuple[dict[str, InterventionValue], str | None] | None:
    for o in f.evidence:
        if o.source == "intervention" and o.effect is not None and o.effect.interventions:
            return o.effect.interventions, o.effect.train_loader
    return None


def _settled(run: Run) -> float:
    curve = run.curve()
    level = final_level(curve) if curve else None
    nonfinite = run.trace is not None and any(
        v is None or not math.isfinite(v) for v in run.trace.raw_curve()[-5:]
    )
    return math.inf if level is None or nonfinite else level


def cause_of_pair(
    session: Session, a: Finding, b: Finding
) -> tuple[Finding, Finding, Observation] | None:
    """(cause, consequence, the observation) when the combined run tells them apart."""
    fa, fb = fix_of(a), fix_of(b)
    if session.runner is None or fa is None or fb is None or set(fa[0]) & set(fb[0]):
        return None
    loader = fa[1] or fb[1]
    ra, rb, both = session.runner.many([fa[0], fb[0], {**fa[0], **fb[0]}], train_loader=loader)
    la, lb, lab = _settled(ra), _settled(rb), _settled(both)
    if not all(math.isfinite(v) for v in (la, lb, lab)):
        return None
    scale = max(abs(la), abs(lb), 1e-12)
    gain_b_after_a, gain_a_after_b = (la - lab) / scale, (lb - lab) / scale
    for cause, consequence, after_cause, after_consequence in (
        (a, b, gain_b_after_a, gain_a_after_b),
        (b, a, gain_a_after_b, gain_b_after_a),
    ):
        if after_cause < ADDS_NOTHING and after_consequence > MATTERS:
            text = (
                f"with {cause.id}'s fix applied, fixing {consequence.id} as well moves the settled loss "
                f"{100 * after_cause:+.0f}% (to {lab:.4g} from {min(la, lb):.4g}), while fixing "
                f"{cause.id} on top of {consequence.id}'s fix moves it {100 * after_consequence:+.0f}%: "
                f"{consequence.id} follows from {cause.id}"
            )
            return cause, consequence, Observation(
                source="intervention", text=text,
                values={"with_both": lab, "cause": cause.id, "consequence": consequence.id},
            )  # fmt: skip
    return None


def bounds_the_objective(session: Session, runaway: Finding, other: Finding) -> Observation | None:
    """A loss that falls without bound is a symptom when another confirmed defect's fix,
    applied alone, gives a loss that no longer does: long enough to tell, never running
    away, and never further below zero than its own start (loss(target, prediction)
    differentiates the labels into minus infinity; swapped back, the loss is bounded)."""
    fix = fix_of(other)
    if session.runner is None or fix is None:
        return None
    run = session.runner.get(fix[0], train_loader=fix[1])
    vals = bounded_curve(run.trace.raw_curve() if run.trace is not None else [])
    if vals is None:
        return None
    text = (
        f"with {other.id}'s fix applied alone the training loss no longer falls without bound "
        f"(over {len(vals)} recorded steps its lowest value is {min(vals):.4g}, from "
        f"{vals[0]:.4g}): the unbounded objective of {runaway.id} follows from {other.id}"
    )
    return Observation(
        source="intervention", text=text,
        values={"lowest": min(vals), "cause": other.id, "consequence": runaway.id},
    )  # fmt: skip
