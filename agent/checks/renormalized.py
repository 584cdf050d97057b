"""Stage 4, probabilities normalized twice: a log_softmax applied on the training path to
what a softmax already made (a hand-written cross-entropy, a label-smoothing loss, fed a
`predict_proba` or a model that returns probabilities). The loss a recognised loss
function computes is judged in loss.py; this is the same defect in any spelling of the
loss, seen at the op."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import runtime, usable
from torch_investigate.agent.checks.effects import compared_steps, intervene
from torch_investigate.agent.checks.locations import where
from torch_investigate.tools.records import Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session
    from torch_investigate.tools.tracefile.records import Frame, OpSite
    from torch_investigate.tools.tracefile.trace import Trace


def _mistake_at(t: Trace, o: OpSite) -> Frame | None:
    """Where the probabilities should not have gone: the softmax itself when a forward of
    the program's modules applies it (the model returns probabilities); else (a helper
    such as `predict_proba` applied it to what the forward returned, right for reporting)
    the line of the training loop that hands them to the loss: the log_softmax's own line
    when the loop computes it, the call of the function holding it otherwise."""
    if o.source_in_forward or o.source is None or o.frame is None:
        return o.source or o.frame
    loop = {b.frame.function for b in t.backwards if b.frame is not None}
    if o.frame.function in loop or o.caller is None:
        return o.frame
    return o.caller if o.caller.function in loop else o.frame


@check(Stage.LOSS)
def renormalized_probabilities(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ("output_semantics",))
    if t is None:
        return
    sites = [o for o in t.ops if o.kind == "renormalized" and o.phases.get("train")]
    if not sites:
        return
    o = sites[0]
    text = (
        f"log_softmax at {o.frame} receives the output of softmax at {o.source} on the "
        f"training path ({o.phases['train']} calls): the probabilities are normalized a "
        "second time before the loss"
    )
    eff = intervene(
        session, {"strip_prob": True}, "with the softmax's logits given to the log_softmax instead"
    )
    ev.find(
        "softmax_before_ce",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, o.frame, session), eff.observation()],
        where=where(session, _mistake_at(t, o)),
        why=(
            "a log-softmax of probabilities squashes the scores twice: values in [0, 1] "
            "differ by at most 1 between classes, so the loss cannot fall below "
            "log(1 + (classes - 1)/e) and its gradients shrink as predictions improve"
        ),
        confirm=f"give the loss the logits (keep the softmax only for reporting probabilities) and compare {compared_steps(session)} steps",
    )
    ev.item("output_semantics", "failed", text)
