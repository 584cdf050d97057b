"""Stage 3, log-probabilities picked across the axis they were normalized over
(tools/trace/gather_axis.py): `log_softmax(scores, dim=1).gather(2, heads)`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.effects import intervene
from torch_investigate.agent.checks.locations import where
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def picked_across(session: Session, ev: Evidence, t: Trace) -> bool:
    """Log-probabilities picked (gathered) along another axis than the softmax normalized
    (tools/trace/gather_axis.py); confirmed when normalizing over the picking axis makes
    the model learn better."""
    sites = [o for o in t.ops if o.kind == "gather_axis" and o.phases.get("train")]
    if not sites:
        return False
    o = sites[0]
    text = (
        f"`{o.op}` at {o.frame} picks along axis {o.dim} of a {o.shape} tensor whose "
        f"probabilities the softmax at {o.source} normalized over another axis: the picked "
        "values are not a distribution over what is picked"
    )
    eff = intervene(
        session,
        {"gather_renormalized": True},
        "with the probabilities normalized over the picked axis",
    )
    ev.find(
        "wrong_dimension",
        status="confirmed" if eff.improved else "plausible",
        confidence="high" if eff.improved else "low",
        evidence=[runtime(text, o.source or o.frame, session), eff.observation()],
        where=where(session, o.source) or where(session, o.frame),
        why="a softmax over the wrong axis makes every row of the other axis sum to one; the loss then trains a distribution the prediction never reads",
        confirm=f"normalize over dim={o.dim} at {o.source} (the axis gathered at {o.frame}) and compare",
    )
    ev.item("batch_dimension", "failed" if eff.improved else "passed", f"{text}; {eff.text}")
    return True
