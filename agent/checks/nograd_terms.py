"""Stage 5, a loss on a no-grad forward's output: a model called under `torch.no_grad()`
(a critic's values collected during a rollout) whose output a standard loss later
regresses, and that loss added to the one the program backward's. The term counts in the
loss's value and carries no gradient, so the optimizer that holds the model steps without
ever changing it. All three are observed in the run (tools/trace/term_marks.py marks the
term and names the model's parameters): the loss value without gradient, the forward
with grad off that made its prediction, and that model's parameters held by a stepping
optimizer yet never given a gradient nor changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.numbers import listed
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def _never_moved(t: Trace, names: set[str]) -> list:
    """Of these parameters, those an optimizer holds and steps that never got a gradient
    nor changed in the recorded steps."""
    return [
        p for p in t.parameters
        if p.name in names and p.in_optimizer and p.requires_grad and p.grad.observed >= 3
        and p.grad.none == p.grad.observed
        and p.update.observed and p.update.zero == p.update.observed
    ]  # fmt: skip


def nograd_term(session: Session, ev: Evidence, t: Trace) -> bool:
    """True when a no-grad term's model is one an optimizer holds and never changes. A
    term on a network no optimizer trains (a frozen teacher's loss logged into the total)
    starves nothing and is no finding."""
    for term in t.nograd_terms:
        still = _never_moved(t, set(term.parameters))
        if term.forward is None or not still:
            continue
        names = [p.name for p in still]
        text = (
            f"the loss at {term.loss} is computed on the output of the model called at "
            f"{term.forward} with grad mode off, and the training loss adds it: it counts in "
            f"the loss's value but carries no gradient. {len(names)} of that model's "
            f"parameters are held by an optimizer that steps, yet never received a gradient "
            f"nor changed in the steps recorded ({listed(names)})"
        )
        ev.find(
            "no_grad_training",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, term.forward, session, parameters=names[:20])],
            where=where(session, term.forward) or where(session, term.loss),
            why="outputs computed under no_grad have no graph: a loss on them is a constant to the optimizer, so the model that made them never trains although its optimizer steps",
            confirm=f"compute the output the loss at {term.loss} regresses with grad on (call the model again outside no_grad) and check that its parameters change",
        )  # fmt: skip
        ev.item("reachability", "failed", text)
        return True
    return False
