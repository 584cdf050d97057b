"""The eight-stage protocol as a state machine.

Stages are walked in order. A check records outcomes on the current stage's
checklist; `advance` closes the stage with a verdict and opens the next one. Stage 8
(optimization choices) opens only when stages 1-7 are all coherent; otherwise it is
recorded as not examined. Every state change goes through `agent.guardrails`
first, so a refused call changes nothing.
"""

from __future__ import annotations

from torch_investigate.agent.core import guardrails
from torch_investigate.agent.core.evidence import EvidenceLog
from torch_investigate.agent.core.guardrails import Refused
from torch_investigate.agent.core.ledger import Ledger
from torch_investigate.agent.core.outcomes import merge_outcome
from torch_investigate.agent.core.stages import fresh_checklist
from torch_investigate.tools.records import (
    CheckItem,
    Experiment,
    Finding,
    NotYet,
    Observation,
    Outcome,
    Stage,
    StageResult,
    Status,
    Verdict,
)


class Protocol:
    def __init__(self) -> None:
        self.stages: dict[Stage, StageResult] = {
            s: StageResult(stage=s, checklist=fresh_checklist(s)) for s in Stage
        }
        self.current: Stage | None = Stage.SYMPTOM
        self.ledger = Ledger()
        self.evidence = EvidenceLog()
        self.experiments: list[Experiment] = []
        self.not_yet: list[NotYet] = []
        self.training_ran = False  # set when the repo's training path produced a trace
        self.symptom: str | None = None  # what stage 1 read from the run (a taxonomy symptom)
        self.root_cause: str | None = None
        self.explanation = ""
        self.finished = False

    # ---- checklist -------------------------------------------------------------

    def item(self, item_id: str, stage: Stage | None = None) -> CheckItem:
        stage = stage or self.current
        if stage is None:
            raise Refused("finish_before_protocol", "every stage is closed; nothing to check.")
        for item in self.stages[stage].checklist:
            if item.id == item_id:
                return item
        known = ", ".join(i.id for i in self.stages[stage].checklist)
        raise Refused(
            "unknown_item", f"stage {int(stage)} has no item {item_id!r} (items: {known})."
        )

    def check(
        self,
        item_id: str,
        outcome: Outcome,
        detail: str,
        evidence: list[Observation] = (),
        stage: Stage | None = None,
        *,
        untested: bool = False,
    ) -> None:
        """Record what a check (or a policy citing observations) found for an item of the
        current stage, or of a closed `stage` (a review settling what the walk left open;
        the stage's verdict is revised). The merge rule is `merge_outcome`'s. `untested`:
        a not_applicable outcome because the test could not tell here."""
        item = self.item(item_id, stage)
        guardrails.check_item(self, item, outcome, list(evidence))
        merged = merge_outcome((item.outcome, item.detail), outcome, detail)
        if merged is not None:
            item.outcome, item.detail = merged
            item.untested = item.untested and item.outcome == "not_applicable"
            item.evidence_ids.extend(o.id for o in evidence if o.id not in item.evidence_ids)
        if untested and outcome == "not_applicable":
            item.untested = True
        if stage is not None and stage != self.current:
            self.revise(stage)

    # ---- findings ----------------------------------------------------------------

    def findings_in(self, stage: Stage) -> list[Finding]:
        return self.ledger.in_stage(stage)

    def record_finding(self, finding: Finding) -> Finding:
        guardrails.check_finding(self, finding)
        stored = self.ledger.add(finding)
        self.stages[stored.stage].finding_ids.append(stored.id)
        self.revise(stored.stage)
        return stored

    def update_finding(
        self,
        finding_id: str,
        status: Status,
        evidence: list[Observation],
        confidence=None,
    ) -> Finding:
        found = self.ledger.get(finding_id)
        if found is None:
            raise Refused("unknown_finding", f"no finding with id {finding_id!r}.")
        guardrails.check_status_change(self, found, status, evidence)
        updated = self.ledger.with_status(finding_id, status, evidence, confidence)
        guardrails.check_finding(self, updated)
        self.ledger.replace(updated)
        self.revise(updated.stage)
        return updated

    # ---- experiments -----------------------------------------------------------------

    def propose_experiment(self, experiment: Experiment) -> Experiment:
        """Record an experiment under the next id (X1, ...); one that repeats an earlier
        proposal (same kind and findings, or the same description) returns the earlier one."""
        guardrails.check_experiment(self, experiment)
        for known in self.experiments:
            if _same_experiment(known, experiment):
                return known
        stored = experiment.model_copy(update={"id": f"X{len(self.experiments) + 1}"})
        self.experiments.append(stored)
        return stored

    def defer(self, change: NotYet) -> None:
        """Record a change not to attempt yet."""
        guardrails.check_deferral(self, change)
        if not any(n.change == change.change for n in self.not_yet):
            self.not_yet.append(change)

    def number_experiments(self) -> None:
        """Order the experiments by information value (1 = run it first)."""
        for i, exp in enumerate(sorted(self.experiments, key=lambda e: -e.information_value), 1):
            exp.order = i

    # ---- what the run showed ---------------------------------------------------------

    def record_symptom(self, symptom: str | None) -> None:
        """What stage 1 read from the run (a taxonomy symptom id), for the guardrails."""
        guardrails.check_symptom(symptom)
        self.symptom = symptom

    def record_training_ran(self) -> None:
        """The repo's training path produced a trace: runtime evidence exists."""
        self.training_ran = True

    # ---- stage transitions -----------------------------------------------------------

    def advance(self, verdict: Verdict, reason: str) -> Stage | None:
        guardrails.check_advance(self, verdict, reason)
        stage = self.current
        assert stage is not None  # check_advance refuses when every stage is closed
        result = self.stages[stage]
        if verdict == "inconclusive":
            for item in result.checklist:
                if item.outcome == "pending":
                    item.outcome = "skipped"
                    item.detail = f"not checked: {reason}"
        result.verdict = verdict
        result.reason = reason
        self.current = self._next(stage)
        return self.current

    def revise(self, stage: Stage) -> None:
        """Keep a closed stage's verdict true to what it now holds (a finding confirmed or
        refuted, or an item settled, after it closed). When stages 1-7 become coherent
        and stage 8 was not examined, stage 8 opens."""
        result = self.stages[stage]
        if result.verdict in (None, "not_examined") or stage == self.current:
            return
        confirmed = [f.id for f in self.findings_in(stage) if f.status == "confirmed"]
        unsettled = [
            i.id for i in result.checklist
            if i.outcome == "failed" or (i.dynamic and i.outcome in ("skipped", "pending"))
        ]  # fmt: skip
        if confirmed:
            verdict, reason = "defect", "confirmed: " + ", ".join(confirmed)
        elif unsettled:
            verdict, reason = "inconclusive", f"unsettled: {', '.join(unsettled)}"
        else:
            verdict, reason = "coherent", "every item settled, nothing confirmed"
        if verdict != result.verdict:
            result.verdict, result.reason = verdict, f"{reason} (revised after the walk)"
        s8 = self.stages[Stage.OPTIMIZATION]
        if (
            self.current is None
            and s8.verdict == "not_examined"
            and not guardrails.correctness_open(self.stages)
        ):
            s8.verdict, s8.reason = None, ""
            for item in s8.checklist:
                item.outcome, item.detail = "pending", ""
            self.current = Stage.OPTIMIZATION
            self.finished = False

    def _next(self, stage: Stage) -> Stage | None:
        if stage < Stage.MODES:
            return Stage(stage + 1)
        if stage == Stage.MODES:
            blockers = guardrails.correctness_open(self.stages)
            if blockers:
                s8 = self.stages[Stage.OPTIMIZATION]
                s8.verdict = "not_examined"
                s8.reason = "not examined: " + "; ".join(blockers)
                for item in s8.checklist:
                    item.outcome = "skipped"
                    item.detail = "stage 8 runs only when stages 1-7 are coherent"
                return None
            return Stage.OPTIMIZATION
        return None

    def blocking_findings(self) -> list[str]:
        """Confirmed defects of stages 2-7: what an optimization change would mask."""
        return [f.id for f in self.ledger.confirmed() if Stage.DATA <= f.stage <= Stage.MODES]

    # ---- the end -----------------------------------------------------------------------

    def finish(self, root_cause: str | None, explanation: str) -> None:
        guardrails.check_finish(self, root_cause, explanation)
        self.root_cause = root_cause
        self.explanation = explanation
        self.finished = True

    def conclusion(self) -> tuple[str, str]:
        """(conclusion, reason) for the report; 'no defect' only when the guardrail allows."""
        confirmed = self.ledger.confirmed()
        if confirmed:
            ids = ", ".join(f.id for f in confirmed)
            return "defects_found", f"confirmed by runtime evidence: {ids}"
        try:
            guardrails.check_no_defect_claim(self)
        except Refused as refusal:
            return "inconclusive", refusal.message
        return "no_defect_found", "the training path ran and every stage's runtime checks passed"


def _words(text: str) -> str:
    return " ".join("".join(c.lower() if c.isalnum() else " " for c in text).split())


def _same_experiment(a: Experiment, b: Experiment) -> bool:
    if _words(a.description) == _words(b.description):
        return True
    return (
        a.kind == b.kind and bool(a.finding_ids) and sorted(a.finding_ids) == sorted(b.finding_ids)
    )
