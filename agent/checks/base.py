"""The seam for stage checks: a registry of check functions per stage, and the
evidence they return.

A check reads the session (static findings, the baseline trace, intervention runs)
and writes into `Evidence`: checklist outcomes, candidate findings and the facts its
stage establishes for later ones (`StageFacts`: the symptom, the fixed-batch fits).
Checks never touch the protocol or the session; `run_stage_checks` records the
outcomes and the facts, and a policy decides which findings to record (the planner
records all of them).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from torch_investigate.agent.core.facts import StageFacts
from torch_investigate.agent.core.outcomes import merge_outcome
from torch_investigate.tools.records import (
    Confidence,
    Finding,
    Location,
    Observation,
    Outcome,
    Stage,
    Status,
)
from torch_investigate.tools.taxonomy import taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


@dataclass
class Evidence:
    stage: Stage
    items: dict[str, tuple[Outcome, str]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    untested: set[str] = field(default_factory=set)
    # what earlier stages established, and what this one adds (read and written here)
    facts: StageFacts = field(default_factory=StageFacts)

    def item(self, item_id: str, outcome: Outcome, detail: str, *, untested: bool = False) -> None:
        """Record an item's outcome (two checks may speak about one item: see merge_outcome).
        `untested`: not_applicable because the test could not tell on this program."""
        if untested:
            self.untested.add(item_id)
        old = self.items.get(item_id)
        merged = (outcome, detail) if old is None else merge_outcome(old, outcome, detail)
        if merged is not None:
            self.items[item_id] = merged

    def find(
        self,
        category: str,
        *,
        status: Status,
        confidence: Confidence,
        evidence: list[Observation],
        why: str,
        confirm: str,
        where: Location | None = None,
        title: str = "",
        detector: str = "",
        stage: Stage | None = None,
    ) -> Finding:
        for i, f in enumerate(self.findings):  # the same defect seen from a second site or check
            if f.category == category and (
                where is None or (f.file, f.line) == (where.file, where.line)
            ):
                if status == "confirmed" and f.status != "confirmed":
                    # a second check proves what the first only suspected: its observation
                    # confirms the finding, with both checks' evidence
                    f = f.model_copy(
                        update={
                            "status": status,
                            "confidence": confidence,
                            "evidence": [*f.evidence, *evidence],
                            "detector": f"{f.detector}+{detector or f'runtime.{category}'}",
                        }
                    )
                    self.findings[i] = f
                return f
        cat_stage = (
            Stage(taxonomy().category(category).stage) if category != "other" else self.stage
        )
        f = Finding(
            category=category,
            title=title,
            stage=stage or cat_stage,
            status=status,
            confidence=confidence,
            file=where.file if where else None,
            symbol=where.symbol if where else None,
            line=where.line if where else None,
            evidence=evidence,
            why=why,
            confirm=confirm,
            detector=detector or f"runtime.{category}",
        )
        self.findings.append(f)
        return f

    def text(self) -> str:
        """The evidence as text for a person or a model (bounded by the caller)."""
        lines = [f"Stage {int(self.stage)} ({self.stage.title}) checks:"]
        for item_id, (outcome, detail) in self.items.items():
            lines.append(f"- {item_id}: {outcome} — {detail}")
        if self.findings:
            lines.append("Candidate findings:")
            for f in self.findings:
                where = f"{f.file}:{f.line} ({f.symbol})" if f.file else "no location"
                lines.append(
                    f"- [{f.status}/{f.confidence}] {f.category} at {where}: {f.evidence[-1].text}"
                )
        for n in self.notes:
            lines.append(f"note: {n}")
        return "\n".join(lines)


Check = Callable[["Session", Evidence], None]
REGISTRY: dict[Stage, list[tuple[str, Check]]] = {s: [] for s in Stage}


def check(stage: Stage) -> Callable[[Check], Check]:
    """Register a check for a stage; checks run in registration order."""

    def deco(fn: Check) -> Check:
        REGISTRY[stage].append((fn.__name__, fn))
        return fn

    return deco


def run_checks(session: Session, stage: Stage) -> Evidence:
    ev = Evidence(stage, facts=session.facts.copy())
    for name, fn in REGISTRY[stage]:
        try:
            fn(session, ev)
        except Exception as e:  # noqa: BLE001 - one broken check must not end the investigation
            ev.notes.append(f"check {name} failed: {type(e).__name__}: {e}")
            session.notes.append(
                f"internal: check {name} failed: {traceback.format_exc(limit=3)[-400:]}"
            )
    return ev
