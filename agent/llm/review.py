"""Review mode (the default with `--model`): the built-in planner walks every stage, then
a model works on what the walk left weak (agent/core/weak_points.py) through the same tools and
guardrails, and ends with a root cause or the reason there is none.

Findings recorded during the review carry `recorded_by="review:<model>"`, so the report
can say which came from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.core.planner import Planner
from torch_investigate.agent.core.weak_points import WeakPoint, weak_points
from torch_investigate.tools.records import LLMUsage

if TYPE_CHECKING:
    from torch_investigate.agent.core.policy import ToolCaller
    from torch_investigate.agent.core.session import Session
    from torch_investigate.agent.llm.policy import LLMPolicy

MAX_EVIDENCE_TEXT = 200


class ReviewPolicy:
    def __init__(self, llm: LLMPolicy) -> None:
        self.llm = llm
        self.name = f"review:{llm.settings.model}"
        self.points: list[WeakPoint] = []

    @property
    def usage(self) -> LLMUsage:
        return self.llm.usage

    @property
    def endpoint_error(self) -> str | None:
        return self.llm.endpoint_error

    @property
    def stop_reason(self) -> str:
        return self.llm.stop_reason

    # what a trajectory saves of the model's side
    @property
    def settings(self):
        return self.llm.settings

    @property
    def client(self):
        return self.llm.client

    @property
    def conversation(self):
        return self.llm.conversation

    @property
    def failures(self):
        return self.llm.failures

    def run(self, session: Session, call: ToolCaller) -> None:
        session.policy_name = "planner"
        Planner().run(session, call)
        self.points = weak_points(session)
        session.policy_name = self.name
        self.llm.review(session, call, summary(session), self.points)


def summary(session: Session) -> str:
    """The walk in a few lines: symptom, stage verdicts, findings with their evidence ids."""
    p = session.protocol
    lines = [f"Symptom: {session.symptom or 'not established'}; {session.facts.symptom_evidence}"]
    for stage, r in p.stages.items():
        lines.append(f"Stage {int(stage)} {stage.title}: {r.verdict} — {r.reason[:160]}")
    for f in p.ledger.all():
        where = f"{f.file}:{f.line} ({f.symbol})" if f.file else "no location"
        shown = next((o for o in f.evidence if o.is_dynamic), f.evidence[0])
        text = shown.text if len(shown.text) <= MAX_EVIDENCE_TEXT else shown.text[:199] + "…"
        ids = ", ".join(o.id for o in f.evidence if o.id)
        lines.append(
            f"{f.id} [{f.status}/{f.confidence}] {f.category} at {where}: {text} (evidence {ids})"
        )
    if not p.ledger.all():
        lines.append("No findings.")
    return "\n".join(lines)


def render_points(points: list[WeakPoint]) -> str:
    if not points:
        return (
            "None stands out: check the most likely root cause once (is it on the training "
            "path, does its evidence show it), then finish."
        )
    out = []
    for i, w in enumerate(points, start=1):
        refs = ", ".join(w.finding_ids + w.items)
        out.append(f"{i}. [{w.kind}] {w.text}" + (f" ({refs})" if refs else ""))
    return "\n".join(out)
