"""The eight-stage protocol as a state machine.

Stages are walked in order. A check records outcomes on the current stage's
checklist; `advance` closes the stage with a verdict and opens the next one. Stage 8
(optimization choices) opens only when stages 1-7 are all coherent; otherwise it is
recorded as not examined. Every state change goes through `agent.guardrails`
first, so a refused call changes nothing.

A closed stage is not frozen: a review may record, confirm, demote or refute findings
and settle items after the walk. `recompute` then keeps every closed stage's verdict
and reason true to what the stages hold as they stand (stage 8 included: it waits again
when a stage before it stops being coherent, and opens when nothing blocks it).
"""

from __future__ import annotations

import re

from torch_investigate.agent.core import guardrails
from torch_investigate.agent.core.evidence import EvidenceLog
from torch_investigate.agent.core.guardrails import CORRECTNESS_STAGES, Refused
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
    Revision,
    Stage,
    StageResult,
    Status,
    Verdict,
)

_STAGE_CITED = re.compile(r"\bstage (\d)\b", re.IGNORECASE)


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
        # what each stage held when it closed: a closed stage's verdict is recomputed only
        # when that changed (a planner's or a model's own reason stands until then)
        self._closed_on: dict[Stage, tuple] = {}
        # a closed stage's own reason, and what it now says of the other stages it cites
        self._cited: dict[Stage, tuple[str, dict[int, str]]] = {}
        self.optimization_ran = False  # stage 8's checks ran (it is not reopened to rerun them)

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
            self.recompute()

    def settle(
        self,
        item_id: str,
        outcome: Outcome,
        detail: str,
        evidence: list[Observation],
        stage: Stage | None = None,
    ) -> tuple[Outcome, Outcome]:
        """A policy settles an item by citing observations (`check_item`): unlike checks
        that speak about one item together (`check`), it is a decision, so the item takes
        the outcome it names, a failure included, and the stage's verdict follows.
        Returns (outcome before, outcome now)."""
        item = self.item(item_id, stage)
        guardrails.check_item(self, item, outcome, list(evidence))
        before = item.outcome
        if outcome == before:
            if detail not in item.detail:
                item.detail = f"{item.detail}; {detail}" if item.detail else detail
        else:
            was = f"; was {before}: {item.detail}" if item.detail else f"; was {before}"
            item.outcome, item.detail = outcome, detail + was[:200]
        if outcome in ("passed", "failed") or any(o.is_dynamic for o in evidence):
            item.untested = False
        item.evidence_ids.extend(o.id for o in evidence if o.id not in item.evidence_ids)
        self.recompute()
        return before, item.outcome

    # ---- findings ----------------------------------------------------------------

    def findings_in(self, stage: Stage) -> list[Finding]:
        return self.ledger.in_stage(stage)

    def record_finding(self, finding: Finding) -> Finding:
        guardrails.check_finding(self, finding)
        stored = self.ledger.add(finding)
        self.stages[stored.stage].finding_ids.append(stored.id)
        self.recompute()
        return stored

    def update_finding(
        self,
        finding_id: str,
        status: Status,
        evidence: list[Observation],
        confidence=None,
        by: str = "",
        note: str = "",
    ) -> Finding:
        """Revise a recorded finding: a new status on the cited observations, kept as a
        `Revision` (who, from what, on which ids, why). Demoting or refuting is always
        allowed on evidence; only an upgrade meets the rules a new finding meets."""
        found = self.ledger.get(finding_id)
        if found is None:
            raise Refused("unknown_finding", f"no finding with id {finding_id!r}.")
        guardrails.check_status_change(self, found, status, evidence)
        revision = Revision(
            by=by, status_from=found.status, status_to=status,
            evidence_ids=[o.id for o in evidence if o.id], note=note.strip(),
        )  # fmt: skip
        updated = self.ledger.with_status(finding_id, status, evidence, confidence, revision)
        guardrails.check_revision(self, found, updated)
        self.ledger.replace(updated)
        self.recompute()
        return updated

    def revise_symptom(self, symptom: str, evidence: list[Observation], by: str = "") -> str | None:
        """Correct what stage 1 read from the run (a curve labelled healthy that a probe
        shows diverging) on dynamic observations; returns the symptom before."""
        guardrails.check_symptom_revision(self, symptom, evidence)
        was = self.symptom
        self.symptom = symptom
        item = self.item("loss_curve", Stage.SYMPTOM)
        ids = ", ".join(o.id for o in evidence)
        note = f"symptom revised{' by ' + by if by else ''}: {was or 'none'} -> {symptom} ({ids})"
        item.detail = f"{item.detail}; {note}" if item.detail else note
        item.evidence_ids.extend(o.id for o in evidence if o.id not in item.evidence_ids)
        return was

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

    def advance(self, verdict: Verdict, reason: str, stage: Stage | None = None) -> Stage | None:
        """Close the current stage; `stage` names it (a call that names another stage is
        refused, so calls sent together never close the wrong one). A stage closed as
        inconclusive that holds a confirmed finding is a defect: its verdict follows what
        it holds, whatever else was left unchecked."""
        guardrails.check_advance(self, verdict, reason, stage)
        stage = self.current
        assert stage is not None  # check_advance refuses when every stage is closed
        result = self.stages[stage]
        if verdict == "inconclusive":
            for item in result.checklist:
                if item.outcome == "pending":
                    item.outcome = "skipped"
                    item.detail = f"not checked: {reason}"
            confirmed = self._confirmed_in(stage)
            if confirmed:
                verdict = "defect"
                reason = f"confirmed: {', '.join(confirmed)}; not every item was checked ({reason})"
        result.verdict = verdict
        result.reason = reason
        self._closed_on[stage] = self._holding(stage)
        if stage == Stage.OPTIMIZATION:
            self.optimization_ran = True
        self.current = self._next(stage)
        return self.current

    def _confirmed_in(self, stage: Stage) -> list[str]:
        return [f"{f.id} {f.category}" for f in self.findings_in(stage) if f.status == "confirmed"]

    def _holding(self, stage: Stage) -> tuple:
        """What a stage's verdict depends on: its findings' statuses and its items."""
        return (
            tuple((f.id, f.status) for f in self.findings_in(stage)),
            tuple((i.id, i.outcome, i.untested) for i in self.stages[stage].checklist),
        )

    def _verdict_now(self, stage: Stage) -> tuple[Verdict, str]:
        """A defect is a confirmed finding of the stage. Without one, a failed item keeps
        the stage inconclusive, and the reason says whether a confirmed finding of another
        stage rests on the same observation (a data item failed by a layout the taxonomy
        files under the forward pass); an item nobody could settle is named as unsettled."""
        result = self.stages[stage]
        confirmed = self._confirmed_in(stage)
        if confirmed:
            return "defect", "confirmed: " + ", ".join(confirmed)
        parts = [self._failed(item) for item in result.checklist if item.outcome == "failed"]
        unsettled = [
            i.id for i in result.checklist
            if i.outcome != "failed"
            and i.dynamic and (i.outcome in ("skipped", "pending") or i.untested)
        ]  # fmt: skip
        if unsettled:
            parts.append(f"unsettled: {', '.join(unsettled)}")
        if parts:
            return "inconclusive", "; ".join(parts)
        return "coherent", "every item settled, nothing confirmed"

    def _failed(self, item: CheckItem) -> str:
        cited = set(item.evidence_ids)
        shown = [
            f for f in self.ledger.confirmed()
            if cited & {o.id for o in f.supporting() if o.is_dynamic}
        ]  # fmt: skip
        if not shown:
            return f"{item.id} failed, with no confirmed finding of this stage"
        said = ", ".join(f"{f.id} {f.category} (stage {int(f.stage)})" for f in shown)
        return f"{item.id} failed: confirmed as {said} on the same observation"

    def recompute(self) -> None:
        """Keep every closed stage's verdict and reason true to what it now holds (a finding
        recorded, confirmed, demoted or refuted, or an item settled, after it closed). A
        stage whose findings and items did not change keeps the verdict and reason it
        closed with. Stage 8 follows stages 1-7: it waits (not examined, naming what
        blocks it) while one of them is not coherent, unless it holds a confirmed finding
        (a defect, with what now blocks an optimization change said); it opens when
        nothing blocks it and its checks never ran."""
        before = {s: r.verdict for s, r in self.stages.items()}
        for stage in CORRECTNESS_STAGES:
            result = self.stages[stage]
            if result.verdict is None or stage == self.current:
                continue
            holding = self._holding(stage)
            if holding == self._closed_on.get(stage):
                continue
            self._closed_on[stage] = holding
            verdict, reason = self._verdict_now(stage)
            if verdict == result.verdict == "coherent":
                continue  # still coherent: the reason it closed with stays true
            if (verdict, reason) != (result.verdict, result.reason):
                result.verdict, result.reason = verdict, f"{reason} (revised after it closed)"
                self._cited.pop(stage, None)
        self._recompute_optimization()
        moved = {s for s, r in self.stages.items() if r.verdict != before[s]}
        if moved:
            self._say_what_moved(moved)

    def _say_what_moved(self, moved: set[Stage]) -> None:
        """A closed stage whose reason (or the detail of an item it left failed or
        unsettled) cites another stage that has since changed verdict says so after its
        reason ("the forward mixes samples (stage 3)" once stage 3 is no longer a defect),
        so no reason stands on a stale verdict. Passed items only mention other stages."""
        for stage in CORRECTNESS_STAGES:  # stage 8's reason is recomputed from its blockers
            result = self.stages[stage]
            if result.verdict is None or stage == self.current:
                continue
            base = self._cited.get(stage, (result.reason, {}))[0]
            open_items = [i for i in result.checklist if i.outcome in ("failed", "skipped")]
            text = " ".join([base, *(i.detail for i in open_items)])
            cited = {int(n) for n in _STAGE_CITED.findall(text)} - {int(stage)}
            notes = dict(self._cited.get(stage, (base, {}))[1])
            for s in moved:
                if int(s) in cited:
                    notes[int(s)] = f"stage {int(s)} is now {self.stages[s].verdict or 'open'}"
            if notes:
                self._cited[stage] = (base, notes)
                said = "; ".join(notes[n] for n in sorted(notes))
                result.reason = f"{base} [since it closed: {said}]"

    def _recompute_optimization(self) -> None:
        s8 = self.stages[Stage.OPTIMIZATION]
        if s8.verdict is None or self.current == Stage.OPTIMIZATION:
            return
        blockers = guardrails.correctness_open(self.stages)
        confirmed = self._confirmed_in(Stage.OPTIMIZATION)
        if blockers and confirmed:
            s8.verdict = "defect"
            s8.reason = (
                f"confirmed: {', '.join(confirmed)}; but {'; '.join(blockers)}, and an "
                "optimization change would mask that"
            )
        elif blockers:
            ran = " (its checks ran before that was known)" if self.optimization_ran else ""
            s8.verdict, s8.reason = "not_examined", "; ".join(blockers) + ran
        elif not self.optimization_ran:
            if self.current is None:  # stages 1-7 became coherent after the walk
                s8.verdict, s8.reason = None, ""
                for item in s8.checklist:
                    item.outcome, item.detail = "pending", ""
                self.current = Stage.OPTIMIZATION
                self.finished = False
        else:
            holding = self._holding(Stage.OPTIMIZATION)
            if s8.verdict != "not_examined" and holding == self._closed_on.get(Stage.OPTIMIZATION):
                return
            self._closed_on[Stage.OPTIMIZATION] = holding
            verdict, reason = self._verdict_now(Stage.OPTIMIZATION)
            s8.verdict, s8.reason = verdict, f"{reason} (revised after it closed)"

    def _next(self, stage: Stage) -> Stage | None:
        if stage < Stage.MODES:
            return Stage(stage + 1)
        if stage == Stage.MODES:
            blockers = guardrails.correctness_open(self.stages)
            if blockers:
                s8 = self.stages[Stage.OPTIMIZATION]
                s8.verdict = "not_examined"
                s8.reason = "; ".join(blockers)
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
