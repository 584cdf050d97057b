"""Stage 7: an evaluation DataLoader that shuffles, its predictions scored against labels
in the dataset's order. A loader with a RandomSampler yields its rows in a new order every
pass; predictions gathered from it pair with the labels it yielded beside them, and with
no other order. The tracer (tools/trace/eval_order.py) sees each evaluation comparison
after such a pass hold the very labels the loader yielded, or the same values in another
order. Only the second is suspect, and only the run decides: the loader iterating in
order (its random draws still made, so training runs as written) must bring the program's
own evaluation metric beyond where its seeds alone put it. A program that puts its
predictions back in dataset order itself (by the indices the loader yields) scores the
same either way, and keeps no finding."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.input_moments import last_evaluations
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.spread import RESEEDS, Band
from torch_investigate.tools.records import Observation
from torch_investigate.tools.tracefile.eval_records import EvalOrder
from torch_investigate.tools.tracefile.trace import LoaderInfo, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# The in-order evaluation must cut the measure as written (an error rate, an evaluation
# loss) by at least this share, besides leaving the reseeded band: a reordering that
# moves the metric by a few rows is no explanation of an evaluation that fails.
JUMP = 0.25


def reordered_labels(t: Trace) -> list[EvalOrder]:
    """Shuffling loaders whose evaluation comparisons held their labels in another order
    than the loader yielded them, and never in its own."""
    return [o for o in t.eval_order if o.reordered and not o.yielded]


@dataclass(frozen=True)
class InOrder:
    """What iterating one shuffling evaluation loader in order did to the evaluation."""

    loader: LoaderInfo
    text: str  # what the run as written showed
    observation: Observation  # the rerun in order against the reseeded runs as written
    repairs: bool  # beyond the seeds' band and by JUMP at least


def in_order(session: Session, t: Trace, o: EvalOrder) -> InOrder | None:
    """Rerun with the loader of `o` iterating in order, and three draws of the run as
    written (its seeds shifted); None when the runs record no evaluation to compare."""
    loader = next((ld for ld in t.loaders if ld.site == o.site), None)
    if session.runner is None or loader is None or loader.role == "train":
        return None
    change = {"ordered_eval_loaders": o.site}
    runs = session.runner.many([change, *({"reseed": k} for k in RESEEDS)], steps=t.n_steps or None)
    ordered = runs[0].trace
    found = last_evaluations(t, ordered)
    draws = [last_evaluations(ordered, r.trace) for r in runs[1:]]
    if found is None or any(d is None for d in draws):
        return None
    what, as_written, value = found
    band = Band((as_written, *(d[2] for d in draws if d is not None)))
    text = (
        f"the evaluation loader built at {loader.frame or o.site} shuffles "
        f"({loader.sampler}); the predictions gathered from it are compared at "
        f"{o.frame} with {o.compared} labels that hold the values it yielded in another "
        f"order (the dataset's), not the labels it yielded beside them"
    )
    moved = (
        f"with that loader iterating in order, the program's {what} at its last "
        f"evaluation is {fmt(value)} instead of {fmt(as_written)} as written; {band.text()}"
    )
    obs = Observation(
        source="intervention", text=moved,
        values={"eval_as_written": as_written, "eval_in_order": value, "measure": what,
                "reseeded": list(band.settled), "interventions": change},
    )  # fmt: skip
    repairs = band.beyond(value) and value < (1 - JUMP) * band.low
    return InOrder(loader, text, obs, repairs)


def order_repairs(session: Session, t: Trace) -> bool:
    """A shuffling evaluation loader iterated in order repairs the program's evaluation:
    what the evaluation shows is the order's doing, not the rows'."""
    return any(
        (r := in_order(session, t, o)) is not None and r.repairs for o in reordered_labels(t)
    )


def shuffled_evaluation(session: Session, ev: Evidence, t: Trace) -> bool:
    """Confirm metric_bug at a shuffling evaluation loader's construction when iterating
    it in order repairs the program's own evaluation; True when the run decided the
    metrics item (confirmed, or passed with what the order changed)."""
    for o in reordered_labels(t):
        r = in_order(session, t, o)
        if r is None:
            continue
        if not r.repairs:
            ev.item(
                "metrics", "passed", f"{r.text}; {r.observation.text}: the order does not decide it"
            )
            return True
        frame = r.loader.frame or o.site
        ev.find(
            "metric_bug",
            status="confirmed",
            confidence="high",
            evidence=[runtime(r.text, o.frame, session, loader=o.site), r.observation],
            where=where(session, r.loader.frame),
            why="the evaluation loader shuffles, so the predictions come in a new order every pass while the labels they are scored against stay in the dataset's order: the metric pairs predictions with other rows' labels and reads near chance for a model that works",
            confirm=f"build the evaluation loader at {frame} with shuffle=False (or collect the labels from its batches) and compare the metric",
        )
        ev.item("metrics", "failed", f"{r.text}; {r.observation.text}")
        return True
    return False
