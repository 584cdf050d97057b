"""The end of an investigation: close what a policy left open, choose the root cause
by evidence, order the next experiments by information value, and list the changes
not to attempt yet, each tied to the problem it would mask."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from torch_investigate.agent.core.interaction import bounds_the_objective, cause_of_pair, fix_of
from torch_investigate.tools.records import Experiment, Finding, NotYet, Stage
from torch_investigate.tools.taxonomy import taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

CONFIDENCE = {"high": 1.0, "medium": 0.5, "low": 0.0}


def effect(f: Finding) -> float | None:
    """The largest relative improvement an intervention showed for this finding."""
    vals = [
        o.effect.relative_improvement
        for o in f.evidence
        if o.source == "intervention" and o.effect is not None and o.effect.same_objective
    ]
    return max(vals) if vals else None


# A defect that another confirmed defect produces as a side effect is not the root cause
# (each category's spec names what it can cause: tools/taxonomy.json `causes`).
def consequence_of(category: str) -> set[str]:
    return taxonomy().consequence_of(category)


def score(f: Finding, confirmed: set[str] | None = None) -> float:
    """Earlier stages first, weighted by what fixing the defect did to the loss."""
    s = 10.0 - int(f.stage) + CONFIDENCE[f.confidence]
    if confirmed and consequence_of(f.category) & confirmed:
        s -= 5.0
    if "crash" in f.detector:
        s += 3.0
    e = effect(f)
    if e is not None:
        s += 5.0 * min(max(e, 0.0), 1.0)
        if e < 0.02:
            s -= 2.0
    return s


def choose_root_cause(session: Session) -> Finding | None:
    """The most likely root cause. Section A is for a confirmed cause: a suspicion is
    named only when nothing could be checked at run time (and never next to "no defect
    found"). An optimization choice (stage 8) is the cause only when stages 2-7 hold no
    defect, confirmed or suspected."""
    findings = session.protocol.ledger.all()
    confirmed = [f for f in findings if f.status == "confirmed"]
    correctness = [f for f in confirmed if f.stage < Stage.OPTIMIZATION]
    suspected_correctness = [
        f for f in findings
        if f.status == "plausible" and Stage.DATA <= f.stage < Stage.OPTIMIZATION and f.confidence != "low"
    ]  # fmt: skip
    if correctness or (confirmed and not suspected_correctness):
        candidates = correctness or confirmed
        # a suspected cause (even unconfirmed) demotes its known side effects; when every
        # confirmed defect is such a side effect, the suspected cause is the likelier root
        cats = {f.category for f in findings if f.status != "refuted"}
        best = max(candidates, key=lambda f: score(f, cats))
        causes = [
            f
            for f in findings
            if f.status == "plausible" and f.category in consequence_of(best.category)
        ]
        if causes and all(consequence_of(f.category) & cats for f in candidates):
            return max(causes, key=score)
        return best
    if session.protocol.training_ran:
        return None  # suspicions stay in section C; the report says what was not confirmed
    plausible = [
        f for f in findings
        if f.status == "plausible" and f.confidence != "low" and f.stage < Stage.OPTIMIZATION
    ]  # fmt: skip
    return max(plausible, key=score) if plausible else None


def _where(f: Finding) -> str:
    if not f.file:
        return "no single location"
    return f"{f.file}:{f.line} ({f.symbol})" if f.line else f"{f.file} ({f.symbol})"


def explain(session: Session, root: Finding | None) -> str:
    conclusion, reason = session.protocol.conclusion()
    if root is None:
        if conclusion == "no_defect_found":
            return (
                "No defect: "
                + reason
                + ". Each stage's checklist in the report shows the evidence that passed."
            )
        return f"No root cause could be established: {reason}."
    support = root.supporting()  # what confirms it as it now stands (a review's own probe)
    runtime = next((o.text for o in support if o.source in ("runtime", "probe")), None)
    intervention = next((o.text for o in support if o.source == "intervention"), None)
    parts = [
        f"{root.id} — {root.title} at {_where(root)} (stage {int(root.stage)}, {root.stage.title})."
    ]
    if root.status == "confirmed":
        if runtime:
            parts.append(f"Observed: {runtime}.")
        if intervention:
            parts.append(f"Intervention: {intervention}.")
        others = [f for f in session.protocol.ledger.confirmed() if f.id != root.id]
        if others:
            parts.append(
                "It is chosen over "
                + ", ".join(f"{f.id} ({f.category})" for f in others[:4])
                + " because it sits earlier on the training path or its fix changes the loss most."
            )
    else:
        parts.append(
            f"Nothing was confirmed at run time ({reason}); this is the strongest static suspicion: {root.evidence[0].text}"
        )
    return " ".join(parts)


def _experiments(session: Session) -> list[Experiment]:
    p = session.protocol
    out: list[Experiment] = []
    root = p.root_cause
    symptom = (
        f"the {session.symptom.replace('_', ' ')} symptom"
        if session.symptom and session.symptom != "healthy"
        else "the gap between this run and a correct one"
    )
    for f in p.ledger.all():
        if f.status == "refuted":
            continue
        if f.status == "confirmed":
            e = effect(f) or 0.0
            value = 1.0 if f.id == root else min(0.95, 0.55 + 0.4 * max(e, 0.0))
            out.append(Experiment(
                kind="fix_confirmation", description=f.confirm, finding_ids=[f.id], information_value=value,
                distinguishes=f"whether {f.id} ({f.category}) explains {symptom}: if learning recovers after this change alone, it does",
            ))  # fmt: skip
        else:
            value = {"high": 0.5, "medium": 0.4, "low": 0.2}[f.confidence]
            out.append(Experiment(
                kind="correctness_check", description=f.confirm, finding_ids=[f.id], information_value=value,
                distinguishes=f"confirms or rules out {f.id} ({f.category}), so far only suspected from the code",
            ))  # fmt: skip
    for stage, result in p.stages.items():
        if stage == Stage.OPTIMIZATION or result.verdict != "inconclusive":
            continue
        skipped = [
            i for i in result.checklist if i.dynamic and (i.outcome == "skipped" or i.untested)
        ]
        if skipped:
            out.append(Experiment(
                kind="data_check" if stage == Stage.DATA else "correctness_check",
                description=f"make stage {int(stage)} ({stage.title}) checkable: {skipped[0].detail}",
                distinguishes=f"whether {', '.join(i.id for i in skipped[:3])} hold; until then stage {int(stage)} is unverified",
                information_value=0.3,
            ))  # fmt: skip
    out.sort(key=lambda e: -e.information_value)
    return out[:10]


NOT_YET: list[tuple[str, str, str]] = [
    (
        "lr",
        "change the learning rate or its schedule",
        "a different step size changes how {what} shows up without removing it: a smaller one can make a broken update look stable, a larger one can hide a flat loss",
    ),
    (
        "architecture",
        "change the architecture",
        "a new model inherits {what}; every stage would have to be re-verified and the defect would still be there",
    ),
    (
        "optimizer",
        "switch the optimizer (e.g. SGD <-> Adam)",
        "an adaptive optimizer rescales gradients and can partly hide {what} without fixing it",
    ),
    (
        "model_size",
        "make the model larger",
        "more capacity cannot learn through {what}; it costs more and hides the defect behind noise",
    ),
    (
        "training_length",
        "train for more epochs",
        "more steps repeat the same defective update; {what} does not go away with time",
    ),
]


def _not_yet(session: Session) -> list[NotYet]:
    p = session.protocol
    blocking = [f for f in p.ledger.confirmed() if Stage.DATA <= f.stage <= Stage.MODES]
    open_stages = [s for s in Stage if s < Stage.OPTIMIZATION and p.stages[s].verdict != "coherent"]
    if not blocking and not open_stages:
        return []
    if blocking:
        what = ", ".join(f"{f.id} ({f.category})" for f in blocking[:3])
    else:
        what = "the unverified stages " + ", ".join(f"{int(s)} ({s.title})" for s in open_stages)
    return [
        NotYet(
            change=change,
            kind=kind,
            reason=reason.format(what=what),
            blocked_by=[f.id for f in blocking],
        )
        for kind, change, reason in NOT_YET
    ]


def _demote(session: Session, call, finding: Finding, observation) -> None:
    issued = session.protocol.evidence.issue(observation)
    name, session.policy_name = session.policy_name, "planner"  # the engine's own rule
    try:
        call(
            "update_finding",
            {"finding": finding.id, "status": "plausible", "evidence_ids": [issued.id]},
        )
    finally:
        session.policy_name = name


def _explained_runaways(session: Session, call) -> None:
    """A confirmed unbounded objective whose runaway another confirmed defect's fix stops
    is that defect's symptom, not a second defect (agent/core/interaction.py)."""
    confirmed = session.protocol.ledger.confirmed()
    for f in [f for f in confirmed if f.category == "objective_unbounded"]:
        for other in confirmed:
            if other.id == f.id or fix_of(other) is None:
                continue
            observation = bounds_the_objective(session, f, other)
            if observation is not None:
                _demote(session, call, f, observation)
                break


def _separate_consequences(session: Session, call) -> None:
    """The two strongest confirmed defects with fixes: one more run applies both; a defect
    whose fix adds nothing once the other is fixed follows from it (agent/core/interaction.py)."""
    cats = {f.category for f in session.protocol.ledger.all() if f.status != "refuted"}
    fixable = sorted(
        (f for f in session.protocol.ledger.confirmed() if fix_of(f) is not None),
        key=lambda f: -score(f, cats),
    )
    if len(fixable) < 2:
        return
    found = cause_of_pair(session, fixable[0], fixable[1])
    if found is None:
        return
    _cause, consequence, observation = found
    _demote(session, call, consequence, observation)


def conclude(session: Session, call) -> None:
    p = session.protocol
    guard = 0
    while p.current is not None and guard < 10:
        guard += 1
        call(
            "advance_stage",
            {
                "stage": int(p.current),
                "verdict": "inconclusive",
                "reason": "the investigation ended before this stage was examined",
            },
        )  # a stage holding a confirmed finding closes as a defect (Protocol.advance)
    if not p.finished:
        _explained_runaways(session, call)
        _separate_consequences(session, call)
    for change in _not_yet(session):
        p.defer(change)
    if not p.finished:
        root = choose_root_cause(session)
        result = call(
            "finish",
            {"root_cause": root.id if root else None, "explanation": explain(session, root)},
        )
        if not result.ok:  # a refused explanation: finish without prose rather than not at all
            call("finish", {"root_cause": root.id if root else None, "explanation": ""})
    existing = {e.description for e in p.experiments}
    for exp in _experiments(session):
        if exp.description not in existing:
            _propose(call, exp)
    p.number_experiments()


def _propose(call, exp: Experiment) -> None:
    args: dict[str, Any] = exp.model_dump(
        include={"kind", "description", "distinguishes", "information_value", "finding_ids"}
    )
    call("propose_experiment", args)


__all__ = ["choose_root_cause", "conclude", "explain", "score"]
