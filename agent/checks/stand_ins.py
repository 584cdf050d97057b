"""Stage 5, stand-ins: the loss reaches leaf tensors made anew in every iteration while the
tensors the optimizer holds never receive a gradient. Copies cut from the parameters
(`p.clone().detach().requires_grad_()`, `torch.tensor(p)`) stand in for them: each
iteration's graph ends at the copies, so the optimizer steps on tensors nothing reaches
(MAML's inner-loop weights built detached from the meta-parameters)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

MIN_BACKWARDS = 5  # recorded backward calls before "never a gradient" means anything


def fresh_leaves_stand_in(session: Session, ev: Evidence, t: Trace) -> bool:
    """Confirmed when every tensor an optimizer holds had no gradient at every recorded
    backward, and every one of those backwards reached leaves no optimizer holds, made
    afresh (each reached by one backward only)."""
    held = [p for p in t.parameters if p.in_optimizer and p.requires_grad]
    if not held or not t.backwards or len(t.backwards) < MIN_BACKWARDS:
        return False
    never = [p for p in held if p.grad.observed >= MIN_BACKWARDS and p.grad.none == p.grad.observed]
    fresh = t.counts.get("leaves_reached_once", 0)
    if len(never) < len(held) or any(b.nonparam_leaves == 0 for b in t.backwards):
        return False
    if fresh < len(t.backwards):
        return False  # the same other leaves every time: the optimizer holds the wrong tensors
    leaves = min(b.nonparam_leaves for b in t.backwards)
    text = (
        f"none of the {len(held)} tensors the optimizer holds receives a gradient in "
        f"{never[0].grad.observed} recorded backward calls, while each of the "
        f"{len(t.backwards)} backwards reaches at least {leaves} leaf tensors no optimizer "
        f"holds, made anew in every iteration ({fresh} leaves were reached by one backward "
        "only): copies cut from the parameters stand in for them"
    )
    frame = t.backwards[0].frame
    ev.find(
        "detached_graph",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, frame, session, held=len(held), fresh=fresh)],
        where=first_static_location(session, "detached_graph") or where(session, frame),
        why="the graph ends at copies made from the parameters (detach, then requires_grad_), so the gradient never reaches what the optimizer updates: nothing learns",
        confirm="after loss.backward(), print p.grad for the optimizer's tensors (None); build the working copies with p.clone() (no detach), keeping the graph to the parameters",
    )
    ev.item("reachability", "failed", text)
    return True
