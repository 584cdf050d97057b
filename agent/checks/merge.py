"""A stage's evidence: its runtime checks, merged with the static suspicions of the
same stage. A static suspicion that a runtime check also found becomes part of that
finding; one the run contradicts is refuted (only for checks that observe the fact
directly); one on code that never ran stays plausible with a note."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence, run_checks
from torch_investigate.agent.checks.input_moments import last_evaluations
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.spread import RESEEDS, Band
from torch_investigate.tools.records import Finding, Observation, Stage
from torch_investigate.tools.taxonomy import taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# An intervention applies the fix a finding names; when the loss gets worse with the fix
# by more than this (relative to the loss scale), the run contradicts the finding.
CONTRADICTED = -0.05


def contradicted(f: Finding, session: Session | None = None) -> Finding:
    """A confirmed finding whose own fix made the loss worse is a suspicion, not a defect,
    unless the program's own held-out reading says the fix helps where it counts (a
    training loss that gradients accumulated over many steps overfit lower)."""
    if f.status != "confirmed":
        return f
    tried = [
        o.effect
        for o in f.evidence
        if o.source == "intervention" and o.effect is not None and o.effect.same_objective
    ]
    effects = [e.relative_improvement for e in tried]
    if not effects or max(effects) > CONTRADICTED:
        return f
    best = max(tried, key=lambda e: e.relative_improvement)
    held = held_out_helps(session, dict(best.interventions or {})) if session else None
    if held is not None:
        return f.model_copy(update={"evidence": [*f.evidence, held]})
    note = Observation(
        source="runtime",
        text=f"the run contradicts it: with the fix applied the loss got worse ({max(effects):+.0%} relative), so the observation alone does not explain the symptom",
    )
    return f.model_copy(
        update={"status": "plausible", "confidence": "low", "evidence": [*f.evidence, note]}
    )


# The held-out reading must fall by this share with the fix for a training loss that got
# worse not to contradict it: well beyond what seeds move a held-out metric by.
HELD_OUT_HELPS = 0.25


def held_out_helps(session: Session, changes: dict) -> Observation | None:
    """The fix run as long as the run as written: an observation when the program's own
    held-out reading at its last evaluation is clearly better with it, else None."""
    base = session.baseline().trace if session.runner is not None else None
    if base is None or not changes or last_evaluations(base, base) is None:
        return None  # the program makes no held-out reading the investigator can read
    run = session.runner.get(changes, steps=base.n_steps or None)
    found = last_evaluations(base, run.trace if run else None)
    if found is None:
        return None
    what, written, fixed = found
    if not (written > 0 and fixed <= written * (1 - HELD_OUT_HELPS)):
        return None
    return Observation(
        source="intervention",
        text=f"with the fix, run as long as the run as written, the program's own {what} at "
        f"its last evaluation is {fmt(fixed)} instead of {fmt(written)}: the fix helps on "
        "held-out data, where the training loss cannot tell",
        values={"eval_as_written": written, "eval_with_fix": fixed, "measure": what},
    )


def held_out_beyond_chance(session: Session, change: dict, reason: str) -> Observation | None:
    """With the change, the program's own held-out reading is better by a quarter
    (held_out_helps) and lies beyond every reseeded run as written by more than those
    differ, all run as long as the run as written: the observation (led by `reason`),
    else None."""
    held = held_out_helps(session, change)
    base = session.baseline().trace
    if held is None or base is None:
        return None
    fixed = session.runner.get(change, steps=base.n_steps or None).trace
    reseeded = session.runner.many([{"reseed": k} for k in RESEEDS], steps=base.n_steps or None)
    pairs = [last_evaluations(fixed, r.trace) for r in reseeded]
    if not pairs or any(p is None for p in pairs):
        return None
    band = Band((held.values["eval_as_written"], *(p[2] for p in pairs if p is not None)))
    if not band.beyond(held.values["eval_with_fix"]):
        return None
    text = (
        f"{reason}; with only its seeds changed the run as written reads {fmt(band.low)} to "
        f"{fmt(band.high)} at its last evaluation"
    )
    return held.model_copy(update={"text": f"{text}; {held.text}"})


def _same_defect(f: Finding, statics: list[Finding]) -> list[Finding]:
    """The static suspicions a runtime finding stands on: of its category, at its line,
    else in its file; any of its category when the runtime one has no place. A suspicion
    in another file (a second script with the same slip) stays a finding of its own."""
    same = [s for s in statics if s.category == f.category]
    if f.file is None:
        return same
    here = [s for s in same if s.file == f.file]
    return sorted(here, key=lambda s: (s.line != f.line, abs((s.line or 0) - (f.line or 0))))


CUTS = ("detach", "data", "item", "__float__")


def _cut_seen(session: Session, s: Finding) -> Observation | None:
    """A detached-graph suspicion at a line, or in a function, where the baseline saw a
    graph cut on the path from the training forward to the loss (a detach, `.data`,
    `.item()` of a tensor that carried gradient): the observation, else None."""
    if s.category != "detached_graph" or not s.file or not s.line or session.runner is None:
        return None
    run = session.runner.runs.get("baseline")
    t = run.trace if run is not None else None
    for op in t.ops if t is not None else ():
        here = (
            op.frame is not None
            and op.frame.file == s.file
            and (op.frame.line == s.line or op.frame.function == (s.symbol or "").split(".")[-1])
        )
        if here and op.kind in CUTS and op.phases.get("train"):
            return Observation(
                source="runtime",
                text=f"the run cut the graph here ({op.kind}) {op.phases['train']} times on "
                "the way from the training forward to the loss; every parameter still "
                "reaching the loss through other terms does not make this term carry gradient",
            )
    return None


def stage_evidence(session: Session, stage: Stage) -> Evidence:
    ev = run_checks(session, stage)
    ev.findings = [contradicted(f, session) for f in ev.findings]
    statics = [f for f in session.static_findings if f.stage == stage]
    merged: list[Finding] = []
    for f in ev.findings:
        same = _same_defect(f, statics)
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
        cut = _cut_seen(session, s)
        if cut is not None:
            # the run saw the cut the suspicion names: reachability cannot refute a term
            # cut beside others that still reach every parameter
            merged.append(s.model_copy(update={"evidence": [*s.evidence, cut]}))
        elif outcome is not None and outcome[0] == "passed" and on_path:
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
