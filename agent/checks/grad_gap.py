"""Stage 5, a loss whose gradient misses how it depends on the model's output: a helper
that computes the training loss from the output through numpy, `.detach()` or a rebuilt
tensor (`torch.as_tensor(wrap(a.detach().numpy()))`) still moves with the output, but
its gradient no longer says how. Every parameter may still reach the loss through
another term (a norm penalty on the same output), so reachability cannot see it.

When the code or the run points at a cut (a detached-graph suspicion, a detach on the way
to the loss), the helper's training call is checked in a short run of its own
(tools/trace/grad_check.py): the loss's change along random directions of the output,
by central differences, against autograd's prediction for the same call. Confirmed when
the gradient misses most of the change on every checked call; a helper whose gradient
agrees is recorded as such."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks.base import CheckContext
from torch_investigate.tools.code.checks.helper_args import loss_helper_calls
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

CUTS = ("detach", "data")  # a `.item()` for the log is no pointer
MISSED = 0.8  # the share of the squared change the gradient must miss on every call
STEPS = 3  # the check reads the first training calls only


def gradient_gap(session: Session, ev: Evidence, t: Trace) -> bool:
    """Confirm a loss helper whose gradient misses its dependence on the model's output;
    True when confirmed."""
    if session.options.static_only or session.runner is None or not _cut_pointed(session, t):
        return False
    calls = loss_helper_calls(CheckContext(session.index, analysis(session.index)))
    for spec, helper in calls[:2]:
        run = session.runner.many([{"grad_check": spec}], steps=STEPS)[0]
        checks = [c for c in (run.trace.grad_checks if run.trace else []) if c[1] > 0]
        if not checks:
            continue
        missed = [c[2] / c[1] for c in checks]
        file, line = spec.split(":")[:2]
        if min(missed) < MISSED:
            if max(missed) < 1 - MISSED:
                ev.notes.append(
                    f"the loss helper called at {file}:{line} has a gradient that matches how "
                    f"its value moves with the model's output (it misses at most "
                    f"{fmt(100 * max(missed))}% of the change along random directions)"
                )
            continue
        text = (
            f"the training loss computed by `{helper.rsplit(':', 1)[-1]}` at {file}:{line} "
            "changes with the model's output, but its gradient does not say how: along "
            f"random directions of the output, autograd's prediction misses "
            f"{fmt(100 * min(missed))}%-{fmt(100 * max(missed))}% of the change the loss "
            f"shows by finite differences ({len(checks)} training calls, loss "
            f"{fmt(checks[0][0])}): part of the loss is computed off the graph"
        )
        place = first_static_location(session, "detached_graph") or Location(
            file=file, line=int(line), symbol=session.index.enclosing_symbol(file, int(line))
        )
        ev.find(
            "detached_graph",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, None, session)],
            where=place,
            why="the term computed off the graph counts in the loss but sends no gradient, so the model is trained only by the terms that remain",
            confirm="compute the term with torch operations on the output (no .detach(), .numpy(), .item() or torch.tensor(...) of it) and check that torch.autograd.gradcheck-style finite differences match the gradient",
        )
        ev.item("reachability", "failed", text)
        return True
    return False


def _cut_pointed(session: Session, t: Trace) -> bool:
    """The code or the run points at a cut: a detached-graph suspicion, or a detach of a
    tensor that carried gradient on the way from the training forward to the loss."""
    if any(f.category == "detached_graph" for f in session.static_findings):
        return True
    return any(op.kind in CUTS and op.phases.get("train") for op in t.ops)
