"""Stage 4: a loss helper of the repo called with the model's output where its own
parameters name the target (tools/code/checks/helper_args.py points at the call). Torch's
losses have their argument order checked by the tracer; a hand-written helper (a Gamma
deviance, a pinball loss) is opaque to it, so the run decides: the call is noted in the
run's own copy, once as written (three seeds) and once with the two arguments exchanged,
and each run records how far the model's output stays from its target (mean squared
difference over the target's variance, over the last quarter of the calls). The arguments
are swapped only when exchanging them brings the output closer to its target than the
seeds alone move it (below every seeded run as written by more than those differ): a
helper symmetric in its arguments changes nothing. The parameter names only choose the
call to test; a helper whose names agree with its call is never exchanged, so a
deliberately asymmetric loss (a high quantile, a cost-weighted error) called as its
parameters say is left alone."""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.effects import compare
from torch_investigate.agent.checks.locations import static_in
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.spread import RESEEDS, Band
from torch_investigate.agent.core.curves import bounded_curve, falls_without_bound, finite
from torch_investigate.tools.records import Location

if TYPE_CHECKING:
    from torch_investigate.agent.core.runs import Run
    from torch_investigate.agent.core.session import Session


def _settled(fits: list[float]) -> float | None:
    tail = fits[len(fits) * 3 // 4 :]
    return statistics.fmean(tail) if len(tail) >= 2 else None


def swapped_helper(session: Session, ev: Evidence) -> bool:
    """Confirm a helper's swapped arguments from the runs; True when confirmed."""
    if session.options.static_only or session.runner is None:
        return False
    for f in static_in(session, "loss_args_swapped"):
        spec = _spec(f)
        if spec is None:
            continue
        written = session.runner.many(
            [{"note_call": spec}, *({"note_call": spec, "reseed": k} for k in RESEEDS)]
        )
        fix = {"note_call": spec, "swap_call": True}
        swapped = session.runner.many([fix])[0]
        values = [_settled(r.trace.call_fit) if r.trace else None for r in written]
        after = _settled(swapped.trace.call_fit) if swapped.trace else None
        if after is None or any(v is None for v in values):
            continue
        band = Band(tuple(v for v in values if v is not None), moved=len(set(values)) > 1)
        bounded = _bounds_the_runaway(session, written, swapped)
        if not band.beyond(after) and bounded is None:
            ev.item(
                "argument_order",
                "passed",
                f"{f.file}:{f.line}: exchanging the helper's two arguments leaves the model's "
                f"output as far from its target ({fmt(after)} against {fmt(band.low)} as "
                "written, mean squared difference over the target's variance)",
            )
            continue
        text = bounded or (
            f"with the two arguments at {f.file}:{f.line} exchanged, the model's output ends "
            f"{fmt(after)} (mean squared difference over the target's variance) from its "
            f"target instead of {fmt(band.low)}-{fmt(band.high)} as written; {band.text()}"
        )
        # the exchange is the fix: carried as intervention evidence, so the conclusion can
        # apply it alone (a loss that ran away only because of the swap is its symptom)
        effect = compare(written[0], swapped, f"with the arguments at {f.file}:{f.line} exchanged")
        effect.interventions = fix
        ev.find(
            "loss_args_swapped",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, None, session), effect.observation()],
            where=Location(file=f.file, line=f.line, symbol=f.symbol),
            why="the helper reads the model's output as the target and the target as the prediction, so the model is trained toward another objective than the helper defines",
            confirm=f"pass the arguments at {f.file}:{f.line} in the order of the helper's parameters and compare the held-out error",
        )
        ev.item("argument_order", "failed", text)
        return True
    return False


def _bounds_the_runaway(session: Session, written: list[Run], swapped: Run) -> str | None:
    """The program's run falls without bound, every seeded run as written (over the
    compared steps) ends further below zero than it started, and the exchanged one stays
    bounded: the swap made the objective unbounded (the labels read as logits and the
    model's output as targets). Seeded runaways differ too much for the distance band to
    tell, so the bound is the observation."""
    base = session.baseline()
    if base is None or base.trace is None or falls_without_bound(base.trace.raw_curve()) is None:
        return None
    below = [
        min(v) < -abs(v[0])
        for r in written
        if (v := finite(r.trace.raw_curve() if r.trace else []))
    ]
    if len(below) < len(written) or not all(below):
        return None
    vals = bounded_curve(swapped.trace.raw_curve() if swapped.trace else [])
    if vals is None:
        return None
    return (
        "as written the training loss falls without bound, and in every seeded run it ends "
        f"further below zero than it started; with the two arguments exchanged it stays "
        f"bounded (over {len(vals)} recorded steps its lowest value is {fmt(min(vals))}, "
        f"from {fmt(vals[0])})"
    )


def _spec(f) -> str | None:
    """`file:line:i:j`: the call and the positions of the model's output and the target."""
    values = f.evidence[0].values if f.evidence else {}
    i, j = values.get("model_at"), values.get("target_at")
    if not f.file or not f.line or not isinstance(i, int) or not isinstance(j, int):
        return None
    return f"{f.file}:{f.line}:{i}:{j}"
