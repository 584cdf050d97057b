"""The findings ledger: every finding of one investigation, with stable ids."""

from __future__ import annotations

from torch_investigate.tools.records import (
    Finding,
    Observation,
    Revision,
    Stage,
    Status,
    merged_evidence,
)


class Ledger:
    def __init__(self) -> None:
        self._findings: dict[str, Finding] = {}

    def add(self, finding: Finding) -> Finding:
        """Store a copy under the next id (F1, F2, ...); returns the stored finding."""
        stored = finding.model_copy(update={"id": f"F{len(self._findings) + 1}"}, deep=True)
        self._findings[stored.id] = stored
        return stored

    def get(self, finding_id: str) -> Finding | None:
        return self._findings.get(finding_id)

    def all(self) -> list[Finding]:
        return list(self._findings.values())

    def in_stage(self, stage: Stage) -> list[Finding]:
        return [f for f in self._findings.values() if f.stage == stage]

    def confirmed(self) -> list[Finding]:
        return [f for f in self._findings.values() if f.status == "confirmed"]

    def replace(self, finding: Finding) -> None:
        if finding.id not in self._findings:
            raise KeyError(finding.id)
        self._findings[finding.id] = finding

    def with_status(
        self,
        finding_id: str,
        status: Status,
        evidence: list[Observation],
        confidence=None,
        revision: Revision | None = None,
    ) -> Finding:
        """A copy of the finding with a new status, extra evidence and the revision that
        made the change (not yet stored)."""
        f = self._findings[finding_id]
        update: dict = {"status": status, "evidence": merged_evidence(f.evidence, evidence)}
        if confidence is not None:
            update["confidence"] = confidence
        if revision is not None:
            update["revisions"] = [*f.revisions, revision]
            if revision.status_from != revision.status_to and revision.by:
                update["revised_by"] = revision.by
        return f.model_copy(update=update, deep=True)
