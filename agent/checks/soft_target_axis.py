"""Stage 3, soft targets normalized over the wrong axis: a target distribution a softmax
made over another axis than the one the model's log-probabilities are normalized over
(`softmax(affinity, dim=0)`: over the samples, where the loss `-(q * logp).sum(-1)`
reads each row as a distribution over the classes). Each row then sums to anything but
1 and tells the model how the sample compares with the other samples, not which class
it is. Seen at the product of the two (tools/trace/softmax_axis.py); the rerun with the
targets normalized over the class axis shows what it costs on held-out data."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import runtime, usable
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.merge import held_out_helps
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.records import Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


@check(Stage.FORWARD)
def soft_target_axis(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ())
    if t is None:
        return
    sites = [o for o in t.ops if o.kind == "soft_target_axis" and o.phases.get("train")]
    if not sites:
        return
    o = sites[0]
    shape = o.shape or []
    if o.source is None or o.dim is None or o.source_dim is None or not shape:
        return
    axis = o.source_dim % len(shape)
    text = (
        f"the targets multiplied with the model's log-probabilities at {o.frame} "
        f"({o.phases['train']} training calls, shape {shape}) were made by the softmax at "
        f"{o.source} over axis {axis}, not over the axis the log_softmax normalizes: their "
        f"rows sum to {fmt(o.row_sum)} on average instead of 1"
    )
    moved = f"{o.source.file}:{o.source.line}:{o.dim}"
    held = held_out_helps(session, {"softmax_dim_at": moved})
    ev.find(
        "wrong_dimension",
        title="soft targets normalized over the wrong axis",
        status="confirmed" if held else "plausible",
        confidence="high" if held else "medium",
        evidence=[runtime(text, o.source, session), *([held] if held else [])],
        where=where(session, o.source) or where(session, o.frame),
        why="a target row that is no distribution over the classes asks the model for how each sample compares with the others, not for its class",
        confirm="print(q.sum(-1)[:5]) for a training batch of targets: each row should sum to 1; normalize over the class axis (dim=-1)",
    )
    ev.item("batch_dimension", "failed", text)
