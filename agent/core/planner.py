"""The built-in planner: the default, offline policy.

For each stage in order it runs the stage's checks, records every finding they
produce, and closes the stage with the verdict the evidence supports. It uses the
same tools, and meets the same guardrails, as the LLM policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.tools.records import Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.policy import ToolCaller
    from torch_investigate.agent.core.session import Session


class Planner:
    name = "planner"

    def run(self, session: Session, call: ToolCaller) -> None:
        protocol = session.protocol
        while protocol.current is not None:
            stage = protocol.current
            result = call("run_stage_checks", {"stage": int(stage)})
            if not result.ok:
                call(
                    "advance_stage",
                    {"stage": int(stage), "verdict": "inconclusive", "reason": result.text},
                )
                continue
            for candidate in result.checks.candidates if result.checks else []:
                stored = call("record_finding", {"candidate": candidate.id})
                if stored.refused:  # a guardrail said no: keep the finding as a suspicion
                    call("record_finding", {"candidate": candidate.id, "status": "plausible"})
            verdict, reason = self._verdict(session, stage)
            closed = call(
                "advance_stage", {"stage": int(stage), "verdict": verdict, "reason": reason}
            )
            if not closed.ok:  # never loop on a refusal: the refusal itself is the reason
                call(
                    "advance_stage",
                    {"stage": int(stage), "verdict": "inconclusive", "reason": closed.text},
                )

    @staticmethod
    def _verdict(session: Session, stage: Stage) -> tuple[str, str]:
        result = session.protocol.stages[stage]
        confirmed = [f for f in session.protocol.findings_in(stage) if f.status == "confirmed"]
        if confirmed:
            return "defect", "confirmed: " + "; ".join(f"{f.id} {f.category}" for f in confirmed)
        open_items = [
            i
            for i in result.checklist
            if i.outcome in ("skipped", "failed", "pending") or i.untested
        ]
        if not open_items:
            passed = [i.id for i in result.checklist if i.outcome == "passed"]
            return "coherent", f"all checks passed ({', '.join(passed)})"
        first = open_items[0]
        return "inconclusive", f"{first.id}: {first.detail or first.outcome}"
