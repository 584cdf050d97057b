"""The tools a policy may call, declared once as data.

Each tool has a name, a description and a pydantic argument model (agent/core/tool_args.py);
the JSON schema given to an LLM, the planner's calls, the MCP server and the README's
tool list all come from these declarations. `dispatch` validates the arguments, applies
the guardrails (through the protocol) and returns a typed `ToolResult` whose text is
bounded for a model to read. A refusal or a malformed call is a result, not an exception.

Every observation a tool returns (a checklist outcome, a check's evidence, an
intervention, a probe's output) enters the investigation's evidence log first and is
shown with its id; findings and checklist items cite those ids.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from torch_investigate.agent.checks.merge import stage_evidence
from torch_investigate.agent.core.findings_args import finding_from_args, observations
from torch_investigate.agent.core.guardrails import Refused, correctness_open
from torch_investigate.agent.core.tool_args import (
    AdvanceArgs,
    Candidate,
    CheckItemArgs,
    ExperimentArgs,
    FinishArgs,
    ItemResult,
    ProbeArgs,
    ReadCodeArgs,
    RecordFindingArgs,
    ReviseSymptomArgs,
    SearchCodeArgs,
    ShowEvidenceArgs,
    StageArgs,
    StageChecks,
    ToolError,
    ToolResult,
    UpdateFindingArgs,
)
from torch_investigate.tools.code import read_target, search_code
from torch_investigate.tools.records import Experiment, Finding, ItemCheck, Observation, Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

MAX_TEXT = 12_000
ITEM_TEXT = 240  # characters of an item's detail in a stage summary (show_evidence has all)


def bounded(text: str, limit: int = MAX_TEXT) -> str:
    if not text.strip():
        return "(empty output)"
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} characters cut]"


def _short(text: str, limit: int = ITEM_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _error(kind: ToolError, text: str) -> ToolResult:
    return ToolResult(ok=False, text=text, error=kind)


# ---- handlers -------------------------------------------------------------------------


def _read_code(session: Session, a: ReadCodeArgs) -> ToolResult:
    return ToolResult(ok=True, text=bounded(read_target(session.index, a.target)))


def _search_code(session: Session, a: SearchCodeArgs) -> ToolResult:
    return ToolResult(ok=True, text=bounded(search_code(session.index, a.pattern)))


def _run_stage_checks(session: Session, a: StageArgs) -> ToolResult:
    protocol, log = session.protocol, session.protocol.evidence
    stage = Stage(a.stage)
    if protocol.current != stage:
        raise Refused("stage_order", _not_open(session, stage))
    ev = stage_evidence(session, stage)
    session.record_facts(ev.facts)
    items: dict[str, ItemResult] = {}
    for item_id, (outcome, detail) in ev.items.items():
        item = protocol.item(item_id)
        dynamic = item.dynamic and outcome in ("passed", "failed")
        obs = log.issue(Observation(
            source="runtime" if dynamic else "static",
            text=f"stage {a.stage} item {item_id} {outcome}: {detail}",
            checked=ItemCheck(item=item_id, outcome=outcome),
        ))  # fmt: skip
        protocol.check(item_id, outcome, detail, [obs], untested=item_id in ev.untested)
        items[item_id] = ItemResult(outcome=outcome, detail=detail, evidence_id=obs.id)
    candidates = [session.add_candidate(_issued(session, f)) for f in ev.findings]
    checks = StageChecks(stage=a.stage, items=items, candidates=candidates)
    return ToolResult(ok=True, text=bounded(_stage_text(stage, checks, ev.notes)), checks=checks)


def _not_open(session: Session, stage: Stage) -> str:
    """Why a stage's checks cannot run now, and what can be done instead."""
    protocol = session.protocol
    current, result = protocol.current, protocol.stages[stage]
    if current is not None and stage > current:
        return f"stage {int(stage)} is not open: stage {int(current)} is; stages run in order."
    blockers = correctness_open(protocol.stages)
    if stage == Stage.OPTIMIZATION and blockers:
        return (
            f"stage 8 runs once stages 1-7 are coherent: {'; '.join(blockers)}. When they "
            "become coherent (a finding refuted, an item settled), stage 8 opens."
        )
    closed = f"closed as {result.verdict}" if result.verdict else "not open"
    return (
        f"stage {int(stage)} is {closed}; its checks ran on this run's trace and would find "
        "the same. Settle an item with check_item (citing a probe), or revise a finding with "
        "update_finding; the stage's verdict follows."
    )


def _issued(session: Session, f: Finding) -> Finding:
    log = session.protocol.evidence
    return f.model_copy(update={"evidence": [log.issue(o) for o in f.evidence]})


def _stage_text(stage: Stage, checks: StageChecks, notes: list[str]) -> str:
    lines = [f"Stage {int(stage)} ({stage.title}) checks:"]
    for item_id, r in checks.items.items():
        lines.append(f"- {item_id}: {r.outcome} [{r.evidence_id}] {_short(r.detail)}")
    if checks.candidates:
        lines.append("Candidate findings (record one with record_finding(candidate=ID)):")
    for c in checks.candidates:
        f = c.finding
        where = f"{f.file}:{f.line} ({f.symbol})" if f.file else "no location"
        ids = ", ".join(o.id for o in f.evidence)
        lines.append(
            f"- {c.id} [{f.status}/{f.confidence}] {f.category} at {where}: "
            f"{_short(f.evidence[-1].text)} [evidence {ids}]"
        )
    if not checks.candidates:
        lines.append("No candidate findings.")
    lines.extend(f"note: {n}" for n in notes)
    return "\n".join(lines)


def _show_evidence(session: Session, a: ShowEvidenceArgs) -> ToolResult:
    parts = []
    for oid in a.ids:
        o = session.protocol.evidence.get(oid)
        if o is None:
            parts.append(f"{oid}: no such observation")
            continue
        where = f" at {o.where}" if o.where else ""
        values = f"\n  values: {o.reported_values}" if o.reported_values else ""
        parts.append(f"{o.id} [{o.source}]{where}: {o.text}{values}")
    return ToolResult(ok=True, text=bounded("\n".join(parts)))


def _run_probe(session: Session, a: ProbeArgs) -> ToolResult:
    if session.runner is None:
        return _error(
            ToolError.unavailable,
            "the training path cannot run here (static-only or no command), so no probe can run",
        )
    run = session.runner.probe(a.code, a.timeout_s)
    res = run.trace.probe_result if run.trace else None
    if res is None:
        msg = (
            run.result.failure.message
            if run.result.failure
            else (run.trace.stop_reason if run.trace else run.trace_error)
        )
        why = msg or "the training path never reached its first step"
        return _error(ToolError.failed, bounded(f"the probe did not run: {why}"))
    # a failed probe says its error first (the progress line shows the first line)
    parts = [f"error: {res['error']}"] if res.get("error") else []
    parts.append(f"stdout:\n{res.get('stdout') or '(empty)'}")
    if res.get("result") is not None:
        parts.append(f"result: {res['result']}")
    if res.get("loss_fn"):
        parts.append(f"(loss_fn was the script's own {res['loss_fn']})")
    text = "\n".join(parts)
    obs = session.protocol.evidence.issue(Observation(
        source="probe", text=f"probe {run.label}: {_short(text, 4000)}",
        values={"code": a.code[:2000], "run": run.label},
    ))  # fmt: skip
    body = bounded(f"{text}\n(recorded as observation {obs.id})")
    if res.get("error"):
        return ToolResult(ok=False, text=body, error=ToolError.failed, id=obs.id)
    return ToolResult(ok=True, text=body, id=obs.id)


def _record_finding(session: Session, a: RecordFindingArgs) -> ToolResult:
    try:
        finding = finding_from_args(session, a)
    except ValueError as e:
        return _error(ToolError.bad_arguments, f"invalid finding: {e}")
    before = _verdicts(session)
    stored = record(session, finding)
    where = f" at {stored.file}:{stored.line}" if stored.file else ""
    return ToolResult(
        ok=True,
        text=f"recorded {stored.id}: {stored.category} ({stored.status}){where} in stage "
        f"{int(stored.stage)}{_changed(session, before, stored.stage)}",
        id=stored.id,
    )


def _verdicts(session: Session) -> dict[Stage, tuple[str | None, str]]:
    return {s: (r.verdict, r.reason) for s, r in session.protocol.stages.items()}


def _changed(session: Session, before: dict, stage: Stage | None = None) -> str:
    """What a call did to the stages, for the caller to read: every stage whose verdict
    or reason moved, and the named stage's verdict."""
    parts = []
    for s, r in session.protocol.stages.items():
        if before[s] != (r.verdict, r.reason):
            # a note that a cited stage moved stays whole, however long the reason before it
            reason, note = (r.reason.split(" [since it closed: ", 1) + [""])[:2]
            said = _short(reason, 160) + (f" [since it closed: {note}" if note else "")
            parts.append(
                f"stage {int(s)} now {r.verdict or 'open'}" + (f" ({said})" if said else "")
            )
        elif s == stage and r.verdict is not None:
            parts.append(f"stage {int(s)} {r.verdict}")
    return ("; " + "; ".join(parts)) if parts else ""


def record(session: Session, finding: Finding) -> Finding:
    """Record a finding (guardrails apply) — the one path for every policy."""
    return session.protocol.record_finding(
        finding.model_copy(update={"recorded_by": session.policy_name})
    )


def _update_finding(session: Session, a: UpdateFindingArgs) -> ToolResult:
    try:
        evidence = observations(session, a.evidence_ids)
    except ValueError as e:
        return _error(ToolError.bad_arguments, str(e))
    before, was = _verdicts(session), session.protocol.ledger.get(a.finding)
    updated = session.protocol.update_finding(
        a.finding, a.status, evidence, by=session.policy_name, note=a.notes
    )
    change = (
        f"{was.status} -> {updated.status}"
        if was and was.status != updated.status
        else (f"still {updated.status}, evidence added")
    )
    text = f"{updated.id} {updated.category}: {change}{_changed(session, before, updated.stage)}"
    return ToolResult(ok=True, text=text, id=updated.id)


def _check_item(session: Session, a: CheckItemArgs) -> ToolResult:
    try:
        evidence = observations(session, a.evidence_ids)
    except ValueError as e:
        return _error(ToolError.bad_arguments, str(e))
    detail = a.detail or "; ".join(o.text[:160] for o in evidence)
    detail = f"{detail} (by {', '.join(o.id for o in evidence)})"
    stage = Stage(a.stage) if a.stage is not None else None
    before = _verdicts(session)
    was, now = session.protocol.settle(a.item, a.outcome, detail, evidence, stage)
    item = session.protocol.item(a.item, stage)
    change = f"{was} -> {now}" if was != now else f"still {now}, evidence added"
    where = stage or session.protocol.current
    return ToolResult(
        ok=True,
        text=f"item {a.item}: {change} — {_short(item.detail)}{_changed(session, before, where)}",
    )


def _advance_stage(session: Session, a: AdvanceArgs) -> ToolResult:
    stage = Stage(a.stage)
    nxt = session.protocol.advance(a.verdict, a.reason, stage)
    verdict = session.protocol.stages[stage].verdict
    text = f"stage {a.stage} closed as {verdict}; " + (
        f"now at stage {int(nxt)} ({nxt.title})" if nxt else "every stage is closed; call finish"
    )
    s8 = session.protocol.stages[Stage.OPTIMIZATION]
    if nxt is None and s8.verdict == "not_examined":
        text += f". Stage 8 was not examined: {s8.reason}"
    return ToolResult(ok=True, text=text, current=int(nxt) if nxt else None)


def _revise_symptom(session: Session, a: ReviseSymptomArgs) -> ToolResult:
    try:
        evidence = observations(session, a.evidence_ids)
    except ValueError as e:
        return _error(ToolError.bad_arguments, str(e))
    before = _verdicts(session)
    was = session.protocol.revise_symptom(a.symptom, evidence, by=session.policy_name)
    ids = ", ".join(o.id for o in evidence)
    said = f"{a.symptom} (revised by {session.policy_name} from {was or 'none'} on {ids})"
    if a.notes.strip():
        said += f": {a.notes.strip()}"
    # the session's facts too: a stage that runs later (stage 8, reopened) starts from them
    session.record_facts(replace(session.facts, symptom=a.symptom, symptom_evidence=said))
    return ToolResult(
        ok=True, text=f"symptom: {was or 'none'} -> {a.symptom}{_changed(session, before)}"
    )


def _propose_experiment(session: Session, a: ExperimentArgs) -> ToolResult:
    exp = Experiment(
        kind=a.kind, description=a.description, distinguishes=a.distinguishes,
        information_value=a.information_value, finding_ids=a.finding_ids,
    )  # fmt: skip
    known = {e.id for e in session.protocol.experiments}
    stored = session.protocol.propose_experiment(exp)
    if stored.id in known:
        return ToolResult(
            ok=True, text=f"already proposed as {stored.id}: {stored.description}", id=stored.id
        )
    return ToolResult(ok=True, text=f"experiment {stored.id} recorded ({a.kind})", id=stored.id)


def _finish(session: Session, a: FinishArgs) -> ToolResult:
    session.protocol.finish(a.root_cause, a.explanation)
    conclusion, reason = session.protocol.conclusion()
    return ToolResult(ok=True, text=f"finished: {conclusion} ({reason})")


# ---- declarations ----------------------------------------------------------------------


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    args: type[BaseModel]
    handler: Callable[[Session, Any], ToolResult]

    def schema(self) -> dict[str, Any]:
        """The OpenAI tool-calling declaration, sent with every request: compact (see
        `compact_schema`), because its size is paid again on each one."""
        params = compact_schema(self.args.model_json_schema())
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }


def compact_schema(node: Any) -> Any:
    """A pydantic JSON schema without what tells a model nothing: titles, empty defaults
    (None, "", []), `additionalProperties` (extra keys are refused with a message anyway)
    and the `null` branch of an optional field (leaving it out means the same)."""
    if isinstance(node, list):
        return [compact_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "properties":  # names of arguments, never keywords of the schema
            out[key] = {name: compact_schema(prop) for name, prop in value.items()}
        elif key in ("title", "additionalProperties"):
            continue
        elif key != "default" or value not in (None, "", []):
            out[key] = compact_schema(value)
    branches = out.get("anyOf")
    if isinstance(branches, list):
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == 1:
            del out["anyOf"]
            out = {**kept[0], **out}
    return out


TOOLS: tuple[Tool, ...] = (
    Tool("read_code", "Numbered source of a file, symbol or line range (bounded).", ReadCodeArgs, _read_code),
    Tool("search_code", "Search the Python files; returns file:line (symbol): line.", SearchCodeArgs, _search_code),
    Tool("run_stage_checks", "Run the current stage's built-in checks (static, runtime, interventions): each checklist outcome with its observation id (E..), and candidate findings (C..).", StageArgs, _run_stage_checks),
    Tool("show_evidence", "Full text and numbers of observations.", ShowEvidenceArgs, _show_evidence),
    Tool("run_probe", "Run a Python snippet in the sandbox after the first optimizer step, with the program's own objects and functions; its output is recorded as an observation.", ProbeArgs, _run_probe),
    Tool("record_finding", "Record a candidate (C..), or your own finding with category, location, evidence_ids, why and confirm. `confirmed` needs a runtime, intervention or probe observation.", RecordFindingArgs, _record_finding),
    Tool("update_finding", "Confirm, demote or refute a finding, citing the observations that justify it; the stages' verdicts follow.", UpdateFindingArgs, _update_finding),
    Tool("check_item", "Settle a checklist item with observations (a probe's id for a runtime item); it takes the outcome you give.", CheckItemArgs, _check_item),
    Tool("revise_symptom", "Correct stage 1's symptom (e.g. healthy -> divergence) on runtime or probe observations.", ReviseSymptomArgs, _revise_symptom),
    Tool("advance_stage", "Close the open stage, named by its number, with a verdict and reason; opens the next.", AdvanceArgs, _advance_stage),
    Tool("propose_experiment", "Propose an experiment for section D; returns its id (a repeat returns the earlier one). Optimization kinds wait until stages 1-7 are coherent.", ExperimentArgs, _propose_experiment),
    Tool("finish", "End once every stage is closed, naming the root-cause finding (or null) and why.", FinishArgs, _finish),
)  # fmt: skip
BY_NAME = {t.name: t for t in TOOLS}


def validation_errors(e: ValidationError) -> str:
    """A validation error in one line a model (or a person) can act on."""
    return "; ".join(
        f"{'.'.join(str(x) for x in err['loc']) or 'arguments'}: {err['msg']}"
        for err in e.errors()[:6]
    )


def dispatch(session: Session, name: str, arguments: dict[str, Any] | None) -> ToolResult:
    """Validate, run, and turn refusals and bad calls into results a model can read."""
    tool = BY_NAME.get(name)
    if tool is None:
        return _error(ToolError.unknown_tool, f"unknown tool {name!r}; tools: {', '.join(BY_NAME)}")
    try:
        args = tool.args.model_validate(arguments or {})
    except ValidationError as e:
        return _error(ToolError.bad_arguments, f"bad arguments for {name}: {validation_errors(e)}")
    try:
        return tool.handler(session, args)
    except Refused as r:
        return ToolResult(ok=False, text=str(r), error=ToolError.refused, rule=r.rule)


__all__ = ["BY_NAME", "TOOLS", "Candidate", "ToolError", "ToolResult", "bounded", "dispatch"]
