"""A stage's evidence: its runtime checks, merged with the static suspicions of the
same stage. A static suspicion that a runtime check also found becomes part of that
finding; one the run contradicts is refuted (only for checks that observe the fact
directly); one on code that never ran stays plausible with a note."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, run_checks
from torch_investigate.tools.records import Finding, Observation, Stage
from torch_investigate.tools.taxonomy import taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# An intervention applies the fix a finding names; when the loss gets worse with the fix
# by more than this (relative to the loss scale), the run contradicts the finding.
CONTRADICTED = -0.05


def contradicted(f: Finding) -> Finding:
    """A confirmed finding whose own fix made the loss worse is a suspicion, not a defect."""
    if f.status != "confirmed":
        return f
    effects = [
        o.effect.relative_improvement
        for o in f.evidence
        if o.source == "intervention" and o.effect is not None and o.effect.same_objective
    ]
    if not effects or max(effects) > CONTRADICTED:
        return f
    note = Observation(
        source="runtime",
        text=f"the run contradicts it: with the fix applied the loss got worse ({max(effects):+.0%} relative), so the observation alone does not explain the symptom",
    )
    return f.model_copy(
        update={"status": "plausible", "confidence": "low", "evidence": [*f.evidence, note]}
    )


def stage_evidence(session: Session, stage: Stage) -> Evidence:
    ev = run_checks(session, stage)
    ev.findings = [contradicted(f) for f in ev.findings]
    statics = [f for f in session.static_findings if f.stage == stage]
    merged: list[Finding] = []
    for f in ev.findings:
        same = [s for s in statics if s.category == f.category]
        if same:
            s = same[0]
            update: dict = {
                "evidence": [*s.evidence, *f.evidence],
                "detector": f"{s.detector}+{f.detector}",
            }
            if f.file is None:
                update.update(file=s.file, line=s.line, symbol=s.symbol)
            f = f.model_copy(update=update)
            statics = [x for x in statics if x is not s]
        merged.append(f)
    seen = set(session.baseline_trace_functions())
    for s in statics:
        item = taxonomy().refuted_by(s.category)  # the item that observes the fact itself
        outcome = ev.items.get(item) if item else None
        on_path = bool(s.file and s.symbol) and (
            f"{s.file}:{s.symbol.split('.')[-1]}" in seen
            or f"{s.file}:<module>" in seen
            and s.symbol == "<module>"
        )
        if outcome is not None and outcome[0] == "passed" and on_path:
            obs = Observation(source="runtime", text=f"the run contradicts it: {outcome[1]}")
            merged.append(
                s.model_copy(
                    update={
                        "status": "refuted",
                        "evidence": [*s.evidence, obs],
                        "confidence": "medium",
                    }
                )
            )
        elif seen and s.file and s.symbol and not on_path and session.protocol.training_ran:
            note = Observation(
                source="static",
                text=f"{s.symbol} did not run on the traced training path, so the run can neither confirm nor refute it",
            )
            merged.append(
                s.model_copy(update={"evidence": [*s.evidence, note], "confidence": "low"})
            )
        else:
            merged.append(s)
    ev.findings = merged
    # an item no check spoke about (a check that failed, a check that does not exist) is
    # unchecked: say so instead of leaving the stage impossible to close
    for item in session.protocol.stages[stage].checklist:
        if item.outcome == "pending" and item.id not in ev.items and item.id != "static":
            reason = (
                "; ".join(n for n in ev.notes if n.startswith("check "))
                or "no check produced evidence for it"
            )
            ev.item(item.id, "skipped", f"not checked: {reason}")
    n_static = len([f for f in session.static_findings if f.stage == stage])
    static_item = next(
        (i for i in session.protocol.stages[stage].checklist if i.id == "static"), None
    )
    if static_item is not None:
        names = sorted({f.category for f in session.static_findings if f.stage == stage})
        ev.item(
            "static",
            "passed",
            f"{n_static} static suspicion(s)"
            + (f": {', '.join(names)}" if names else "")
            + f" in {len(session.index.files)} files",
        )
    return ev
