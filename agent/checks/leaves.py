"""Stage 5: parameters that look trained and are not: a submodule put in eval mode to
freeze it while its weights still change, and leaves the forward only reads through a
copy made once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime, stale_copies
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt, listed
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def frozen_by_eval(session: Session, ev: Evidence, t: Trace, problems: list[str]) -> None:
    """A submodule 'frozen' with .eval() whose parameters still train (intent vs effect)."""
    fws = t.train_forwards()
    if not fws or not fws[0].training:
        return
    subs = [
        s
        for s in fws[0].other_mode
        if s.get("training") is False
        and "Dropout" not in s.get("type", "")
        and "Norm" not in s.get("type", "")
    ]
    if not subs:
        return
    prefixes = [s["path"] + "." for s in subs]
    moving = [
        p
        for p in t.parameters
        if any(p.name.startswith(pre) for pre in prefixes)
        and p.update.observed
        and p.update.zero < p.update.observed
    ]
    if not moving:
        return
    text = f"{subs[0]['path']} ({subs[0]['type']}) runs in eval mode during training, yet {len(moving)} of its parameters keep changing (mean update ratio {fmt(moving[0].update.mean_ratio)})"
    ev.find(
        "frozen_parameters",
        status="confirmed",
        confidence="medium",
        evidence=[runtime(text, None, session, moving=[p.name for p in moving][:20])],
        where=first_static_location(session, "frozen_parameters"),
        why=".eval() only changes dropout/BatchNorm behaviour; it does not freeze weights, so a backbone meant to be frozen keeps training",
        confirm=f"set requires_grad_(False) on {subs[0]['path']} (or leave it out of the optimizer) and check that its weights stay equal across a step",
    )
    problems.append(text)


def stale_leaves(session: Session, ev: Evidence, t: Trace, problems: list[str]) -> None:
    """Leaves whose updates never reach the forward: at every backward the loss reaches
    them through the same autograd node, a copy made once (`w.to(dtype)` before the loop)."""
    stale = stale_copies(t)
    if not stale:
        return
    p = stale[0]
    walks = max(p.grad.observed, p.stale_steps + 1)
    text = (
        f"at {p.stale_steps} of {walks} backward calls the loss reached {len(stale)} trainable tensors "
        f"({listed([q.name for q in stale])}) through the very same copy: the forward uses non-leaf "
        f"copies made once{' at ' + str(p.stale_frame) if p.stale_frame else ''}, so the optimizer "
        "updates the originals and the copies never change"
    )
    ev.find(
        "non_leaf_parameters",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, p.stale_frame, session, tensors=[q.name for q in stale][:20])],
        where=where(session, p.stale_frame)
        or first_static_location(session, "non_leaf_parameters"),
        why="a copy of a weight (.to/.double/.cuda) is a non-leaf computed once: updates go to the original, the forward keeps using the stale copy",
        confirm="make the copy inside the forward (or move the leaf itself: w = w.detach().to(...).requires_grad_()) and check the loss falls",
    )
    problems.append(text)
