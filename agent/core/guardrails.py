"""Guardrails as code: what no policy (built-in planner or LLM) may do.

Every rule is a function that raises `Refused` with the rule's name and a message a
model or a person can act on. The protocol calls them before changing state, so a
refused call changes nothing.

Rules
- optimization_before_correctness: no learning-rate, architecture, optimizer,
  model-size or training-length experiments or advice (and no new or newly confirmed
  stage-8 findings) while stages 1-7 are not all coherent; demoting or refuting one
  is always allowed.
- confirmed_needs_runtime: a `confirmed` finding cites a dynamic observation (runtime,
  intervention or probe) that this investigation's evidence log issued.
- evidence_not_issued: no finding or checklist item may carry a dynamic observation the
  log did not issue (a policy cannot label its own words as runtime evidence).
- checklist_incomplete: a stage ends only with its checklist done, unless it is
  closed `inconclusive` with a reason.
- stage_order: stages run in order; a call that names a stage other than the open one
  (run_stage_checks, advance_stage) changes nothing.
- verdict_contradicts_evidence: `defect` needs a confirmed finding in the stage,
  `coherent` needs none and no failed or unchecked dynamic item.
- no_defect_without_evidence: "no defect found" needs a run of the training path
  and every stage's dynamic checks passed.
- finish_before_protocol: the investigation ends only after every stage is closed.
- deferral_unfounded: a change not to attempt yet is an optimization choice, held back
  by findings the ledger holds.
- unknown_symptom: the symptom stage 1 records is a taxonomy symptom.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from torch_investigate.tools.records import (
    OPTIMIZATION_KINDS,
    CheckItem,
    Experiment,
    Finding,
    NotYet,
    Observation,
    Stage,
    StageResult,
    Verdict,
)
from torch_investigate.tools.taxonomy import taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.protocol import Protocol

CORRECTNESS_STAGES = tuple(Stage(s) for s in range(1, 8))


class Refused(Exception):
    """A guardrail said no. `rule` names the rule; the message explains what would be allowed."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __str__(self) -> str:
        return f"refused ({self.rule}): {self.message}"


# Imperative advice to change an optimization choice. Deliberately narrow: it looks
# for a verb of change near an optimization object, so a finding that merely
# mentions the learning rate ("the scheduler decays lr to 0") is not advice.
_ADVICE = re.compile(
    r"\b(increase|decrease|lower|raise|reduce|tune|change|switch|swap|replace|try|use|add|enlarge|"
    r"widen|deepen|double|halve|bump)\b[^.;\n]{0,40}?\b("
    r"learning[ -]rate|lr\b|optimi[sz]er|adam\w*|sgd|rmsprop|model size|hidden size|"
    r"bigger model|larger model|larger network|bigger network|more layers|more units|"
    r"more neurons|width|depth|capacity|epochs|training steps|batch size)",
    re.IGNORECASE,
)
_LONGER = re.compile(
    r"\b(train(ing)? (for )?longer|more epochs|bigger (model|network)|larger (model|network))\b",
    re.IGNORECASE,
)


def optimization_advice(text: str) -> str | None:
    """The phrase in `text` that advises an optimization change, or None."""
    for pattern in (_ADVICE, _LONGER):
        m = pattern.search(text)
        if m:
            return m.group(0)
    return None


def correctness_open(stages: dict[Stage, StageResult]) -> list[str]:
    """Why stages 1-7 are not (yet) all coherent; empty when they are."""
    reasons = []
    for stage in CORRECTNESS_STAGES:
        verdict = stages[stage].verdict
        if verdict != "coherent":
            reasons.append(f"stage {int(stage)} ({stage.title}) is {verdict or 'still open'}")
    return reasons


def _refuse_optimization(what: str, open_reasons: list[str]) -> None:
    raise Refused(
        "optimization_before_correctness",
        f"{what} is not allowed until stages 1-7 are coherent: "
        + "; ".join(open_reasons)
        + ". Find and confirm the correctness problem first (it would be masked by the change).",
    )


def check_experiment(protocol: Protocol, experiment: Experiment) -> None:
    """An experiment is judged by what it changes: its kind. A correctness experiment that
    tests recorded findings of stages 1-7 may name an optimizer or a learning rate in its
    description ("with zero_grad before backward, SGD's loss falls ..."); free text with
    no finding behind it is read for advice."""
    open_reasons = correctness_open(protocol.stages)
    if not open_reasons:
        return
    if experiment.kind in OPTIMIZATION_KINDS:
        _refuse_optimization(f"a {experiment.kind!r} experiment", open_reasons)
    tested = [protocol.ledger.get(i) for i in experiment.finding_ids]
    if any(f is not None and f.stage < Stage.OPTIMIZATION for f in tested):
        return
    advice = optimization_advice(experiment.description)
    if advice:
        _refuse_optimization(f"advice to change an optimization choice ({advice!r})", open_reasons)


def check_deferral(protocol: Protocol, change: NotYet) -> None:
    if change.kind not in OPTIMIZATION_KINDS:
        raise Refused(
            "deferral_unfounded",
            f"{change.kind!r} is not an optimization choice; only those wait for stages 1-7.",
        )
    unknown = [i for i in change.blocked_by if protocol.ledger.get(i) is None]
    if unknown:
        raise Refused("deferral_unfounded", f"no finding {', '.join(unknown)} in the ledger.")


def check_symptom(symptom: str | None) -> None:
    if symptom is not None and not taxonomy().has_symptom(symptom):
        known = ", ".join(s.id for s in taxonomy().symptoms)
        raise Refused("unknown_symptom", f"{symptom!r} is not a symptom ({known}).")


def check_evidence(protocol: Protocol, evidence: list[Observation], what: str) -> None:
    forged = [o for o in evidence if o.is_dynamic and not protocol.evidence.genuine(o)]
    if forged:
        raise Refused(
            "evidence_not_issued",
            f"{what} carries {o_text(forged[0])} as {forged[0].source} evidence, but no run, "
            "intervention or probe of this investigation produced it; cite observations by the "
            "ids tools returned (E1, E2, ...), and put your own reasoning in `notes`.",
        )


def o_text(o: Observation) -> str:
    return f"{o.id!r}" if o.id else f"{o.text[:60]!r}"


def check_finding(protocol: Protocol, finding: Finding) -> None:
    check_evidence(protocol, finding.evidence, f"finding {finding.title!r}")
    if finding.status == "confirmed" and not any(o.shows_a_defect for o in finding.evidence):
        raise Refused(
            "confirmed_needs_runtime",
            f"finding {finding.title!r} is marked confirmed but cites no runtime, intervention or "
            "probe observation of this investigation; record it as plausible, or cite the id of "
            "an observation that shows it.",
        )
    open_reasons = correctness_open(protocol.stages)
    if not open_reasons:
        return
    if _is_optimization(finding.category):
        _refuse_optimization(f"a stage-8 finding ({finding.category})", open_reasons)
    if finding.stage == Stage.OPTIMIZATION:
        _refuse_optimization("a stage-8 finding", open_reasons)
    advice = optimization_advice(finding.confirm)
    if advice:
        _refuse_optimization(f"advice to change an optimization choice ({advice!r})", open_reasons)


def check_status_change(
    protocol: Protocol, finding: Finding, status: str, evidence: list[Observation]
) -> None:
    """Confirming a finding, or taking `confirmed` away from one, takes a dynamic
    observation of this investigation: words alone neither prove nor hide a defect."""
    check_evidence(protocol, evidence, f"the change of {finding.id}")
    if status == finding.status or "confirmed" not in (status, finding.status):
        return
    if not any(o.is_dynamic for o in evidence):
        raise Refused(
            "confirmed_needs_runtime",
            f"{finding.id} can move from {finding.status} to {status} only on a runtime, "
            "intervention or probe observation of this investigation; cite its id.",
        )


def check_revision(protocol: Protocol, before: Finding, after: Finding) -> None:
    """A recorded finding revised on evidence. Demoting or refuting it is always allowed
    (the optimization rule stops new optimization findings, not taking one back); a
    confirmation must rest on what the revision cited, not on what an earlier observation
    said (the observation that refuted it shows no defect); a stage-8 finding becomes
    confirmed only once stages 1-7 are coherent."""
    if after.status != "confirmed" or before.status == "confirmed":
        return
    if not any(o.shows_a_defect for o in after.supporting()):
        raise Refused(
            "confirmed_needs_runtime",
            f"{after.id} cannot be confirmed on what was cited: cite the id of a runtime, "
            "intervention or probe observation that shows the defect (a passed item shows "
            "health).",
        )
    open_reasons = correctness_open(protocol.stages)
    if open_reasons and (after.stage == Stage.OPTIMIZATION or _is_optimization(after.category)):
        _refuse_optimization(f"confirming a stage-8 finding ({after.category})", open_reasons)


def _is_optimization(category: str) -> bool:
    return category != "other" and taxonomy().category(category).stage == 8


def check_item(
    protocol: Protocol, item: CheckItem, outcome: str, evidence: list[Observation]
) -> None:
    """A policy that settles a checklist item cites observations; a dynamic item that
    passes or fails needs a dynamic one (a probe that observed what the item asks)."""
    check_evidence(protocol, evidence, f"item {item.id!r}")
    if evidence and item.dynamic and outcome in ("passed", "failed"):
        if not any(o.is_dynamic for o in evidence):
            raise Refused(
                "confirmed_needs_runtime",
                f"{item.id!r} is checked at run time; cite a runtime, intervention or probe "
                "observation (its id), not only static ones.",
            )


def check_symptom_revision(protocol: Protocol, symptom: str, evidence: list[Observation]) -> None:
    """The symptom is what the run shows: changing it takes an observation of the run."""
    check_evidence(protocol, evidence, "the symptom's revision")
    if not any(o.is_dynamic for o in evidence):
        raise Refused(
            "confirmed_needs_runtime",
            f"the symptom can become {symptom!r} only on a runtime, intervention or probe "
            "observation of this investigation; cite its id.",
        )


def check_advance(
    protocol: Protocol, verdict: Verdict, reason: str, named: Stage | None = None
) -> None:
    stage = protocol.current
    if stage is None:
        raise Refused("finish_before_protocol", "every stage is already closed; call finish.")
    if named is not None and named != stage:
        raise Refused(
            "stage_order",
            f"advance_stage names stage {int(named)}, but the open stage is {int(stage)} "
            f"({stage.title}); nothing was closed. Close stage {int(stage)} first, naming it.",
        )
    result = protocol.stages[stage]
    if verdict == "not_examined":
        raise Refused(
            "verdict_contradicts_evidence",
            "only the protocol marks a stage not_examined (stage 8 when earlier stages are not coherent).",
        )
    pending = [i.id for i in result.checklist if i.outcome == "pending"]
    if verdict == "inconclusive":
        if not reason.strip():
            raise Refused("checklist_incomplete", "an inconclusive stage needs a reason.")
        return
    if pending:
        raise Refused(
            "checklist_incomplete",
            f"stage {int(stage)} ({stage.title}) still has unchecked items: {', '.join(pending)}. "
            "Run the stage's checks, or close it as inconclusive with a reason.",
        )
    confirmed = [f.id for f in protocol.findings_in(stage) if f.status == "confirmed"]
    if verdict == "defect" and not confirmed:
        raise Refused(
            "verdict_contradicts_evidence",
            f"stage {int(stage)} has no confirmed finding; a defect verdict needs one "
            "(record the defect with runtime evidence, or close the stage differently).",
        )
    if verdict == "coherent":
        if confirmed:
            raise Refused(
                "verdict_contradicts_evidence",
                f"stage {int(stage)} holds confirmed findings {', '.join(confirmed)}; it is not coherent.",
            )
        failed = [i.id for i in result.checklist if i.outcome == "failed"]
        unchecked = [
            i.id for i in result.checklist if i.dynamic and (i.outcome == "skipped" or i.untested)
        ]
        if failed:
            raise Refused(
                "verdict_contradicts_evidence",
                f"checks failed in stage {int(stage)}: {', '.join(failed)}; it is not coherent.",
            )
        if unchecked:
            raise Refused(
                "verdict_contradicts_evidence",
                f"dynamic checks of stage {int(stage)} were not run ({', '.join(unchecked)}); "
                "without them the stage is inconclusive, not coherent.",
            )


# symptoms of a run that does not learn: "no defect" beside one of them would contradict it
FAILING_SYMPTOMS = ("flat_loss", "divergence", "oscillation", "bad_evaluation", "too_good")


def check_no_defect_claim(protocol: Protocol) -> None:
    """Refuse 'no defect found' unless the path ran and every dynamic check passed."""
    if not protocol.training_ran:
        raise Refused(
            "no_defect_without_evidence",
            "the training path did not run, so no stage could be checked at run time.",
        )
    unchecked: list[str] = []
    for stage, result in protocol.stages.items():
        if result.verdict == "not_examined":
            continue
        for item in result.checklist:
            if item.dynamic and item.outcome not in ("passed", "not_applicable"):
                unchecked.append(f"{int(stage)}.{item.id} ({item.outcome})")
            elif item.untested:
                unchecked.append(f"{int(stage)}.{item.id} (could not tell)")
    if unchecked:
        raise Refused(
            "no_defect_without_evidence",
            "dynamic checks did not pass: " + ", ".join(unchecked),
        )
    if protocol.symptom in FAILING_SYMPTOMS:
        raise Refused(
            "no_defect_without_evidence",
            f"the run shows {protocol.symptom.replace('_', ' ')} and no check explains it",
        )


def check_finish(protocol: Protocol, root_cause: str | None, explanation: str) -> None:
    if protocol.current is not None:
        raise Refused(
            "finish_before_protocol",
            f"stage {int(protocol.current)} ({protocol.current.title}) is still open; "
            "every stage must be closed before the investigation ends.",
        )
    confirmed = protocol.ledger.confirmed()
    if root_cause is None and confirmed:
        raise Refused(
            "finish_before_protocol",
            "confirmed defects exist ("
            + ", ".join(f"{f.id} {f.category}" for f in confirmed[:5])
            + "); name the most likely root cause among the findings.",
        )
    if root_cause is not None:
        finding = protocol.ledger.get(root_cause)
        if finding is None:
            raise Refused("finish_before_protocol", f"no finding with id {root_cause!r}.")
        if finding.status == "refuted":
            raise Refused(
                "finish_before_protocol", f"{root_cause} was refuted; it cannot be the root cause."
            )
    if correctness_open(protocol.stages):
        advice = optimization_advice(explanation)
        if advice:
            _refuse_optimization(
                f"advice to change an optimization choice ({advice!r})",
                correctness_open(protocol.stages),
            )
