"""The tools a policy may call, declared once as data.

Each tool has a name, a description and a pydantic argument model; the JSON schema
given to an LLM, the planner's calls and the README's tool list all come from these
declarations. `dispatch` validates the arguments, applies the guardrails (through the
protocol) and returns a `ToolResult` whose text is bounded for a model to read. A
refusal or a malformed call is a result, not an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, ValidationError
from torch_investigate.agent.checks.merge import stage_evidence
from torch_investigate.agent.guardrails import Refused
from torch_investigate.tools.code import read_target, search_code
from torch_investigate.tools.records import (
    Experiment,
    ExperimentKind,
    Finding,
    Location,
    Observation,
    Stage,
    Verdict,
)

if TYPE_CHECKING:
    from torch_investigate.agent.session import Session

MAX_TEXT = 12_000


class ToolResult(BaseModel):
    ok: bool
    text: str
    data: dict[str, Any] = Field(default_factory=dict)
    refused: str | None = None  # the guardrail rule that refused the call


def bounded(text: str, limit: int = MAX_TEXT) -> str:
    if not text.strip():
        return "(empty output)"
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} characters cut]"


# ---- argument models ----------------------------------------------------------------


class ReadCodeArgs(BaseModel):
    target: str = Field(
        description="a file (`model.py`), a symbol (`model.py:Net.forward`) or a line range (`train.py:10-60`)"
    )


class SearchCodeArgs(BaseModel):
    pattern: str = Field(
        description="a regular expression or plain text to find in the repo's Python files"
    )


class StageArgs(BaseModel):
    stage: int = Field(ge=1, le=8, description="the protocol stage (must be the current one)")


class ProbeArgs(BaseModel):
    code: str = Field(description=(
        "Python run once inside the sandbox after the first optimizer step, with `model`, `args`, `kwargs`, "
        "`inputs`, `target`, `loss_fn(prediction, target)`, `optimizer`, `torch`, `nn`, `F` in scope; "
        "print what you need or set `result`"
    ))  # fmt: skip
    timeout_s: float = Field(default=60.0, ge=5, le=600)


class ObservationArgs(BaseModel):
    source: Literal["static", "runtime", "intervention"]
    text: str
    values: dict[str, Any] = Field(
        default_factory=dict, description="the observation's numbers, if any"
    )
    where: Location | None = None


class RecordFindingArgs(BaseModel):
    category: str = Field(description="a taxonomy category id, or `other` with a title")
    title: str = ""
    stage: int = Field(ge=1, le=8)
    status: Literal["confirmed", "plausible", "refuted"]
    confidence: Literal["high", "medium", "low"]
    file: str | None = None
    symbol: str | None = None
    line: int | None = None
    evidence: list[ObservationArgs] = Field(min_length=1)
    why: str
    confirm: str = Field(description="the smallest test or change that confirms it")
    detector: str = Field(default="", description="optional: what produced it (a check name)")


class AdvanceArgs(BaseModel):
    verdict: Literal["coherent", "defect", "inconclusive"]
    reason: str


class ExperimentArgs(BaseModel):
    kind: ExperimentKind
    description: str
    distinguishes: str
    information_value: float = Field(default=0.5, ge=0, le=1)
    finding_ids: list[str] = Field(
        default_factory=list, description="the findings this experiment tests"
    )


class FinishArgs(BaseModel):
    root_cause: str | None = Field(
        default=None,
        description="the id of the finding that is the most likely root cause (F1...), or null",
    )
    explanation: str = ""


# ---- handlers -------------------------------------------------------------------------


def _read_code(session: Session, a: ReadCodeArgs) -> ToolResult:
    return ToolResult(ok=True, text=bounded(read_target(session.index, a.target)))


def _search_code(session: Session, a: SearchCodeArgs) -> ToolResult:
    return ToolResult(ok=True, text=bounded(search_code(session.index, a.pattern)))


def _run_stage_checks(session: Session, a: StageArgs) -> ToolResult:
    stage = Stage(a.stage)
    if session.protocol.current != stage:
        current = session.protocol.current
        raise Refused(
            "stage_order",
            f"stage {a.stage} is not the current stage ({int(current) if current else 'none: all closed'}); stages run in order.",
        )
    ev = stage_evidence(session, stage)
    for item_id, (outcome, detail) in ev.items.items():
        session.protocol.check(item_id, outcome, detail)
    data = {
        "stage": a.stage,
        "items": {k: {"outcome": o, "detail": d} for k, (o, d) in ev.items.items()},
        "findings": [f.model_dump(mode="json") for f in ev.findings],
    }
    return ToolResult(ok=True, text=bounded(ev.text()), data=data)


def _run_probe(session: Session, a: ProbeArgs) -> ToolResult:
    if session.runner is None:
        return ToolResult(
            ok=False,
            text="the training path cannot run here (static-only or no command), so no probe can run",
        )
    run = session.runner.probe(a.code, a.timeout_s)
    res = run.trace.probe_result if run.trace else None
    if res is None:
        msg = (
            run.result.failure.message
            if run.result.failure
            else (run.trace.stop_reason if run.trace else run.trace_error)
        )
        return ToolResult(
            ok=False,
            text=bounded(
                f"the probe did not run: {msg or 'the training path never reached its first step'}"
            ),
        )
    parts = [f"stdout:\n{res.get('stdout') or '(empty)'}"]
    if res.get("result") is not None:
        parts.append(f"result: {res['result']}")
    if res.get("error"):
        parts.append(f"error: {res['error']}")
    return ToolResult(ok=not res.get("error"), text=bounded("\n".join(parts)), data=res)


def _record_finding(session: Session, a: RecordFindingArgs) -> ToolResult:
    try:
        finding = Finding(
            category=a.category,
            title=a.title,
            stage=Stage(a.stage),
            status=a.status,
            confidence=a.confidence,
            file=a.file,
            symbol=a.symbol,
            line=a.line,
            evidence=[
                Observation(source=e.source, text=e.text, values=e.values, where=e.where)
                for e in a.evidence
            ],
            why=a.why,
            confirm=a.confirm,
            detector=a.detector or "policy",
        )
    except ValidationError as e:
        return ToolResult(ok=False, text=f"invalid finding: {validation_errors(e)}")
    stored = record(session, finding)
    return ToolResult(
        ok=True,
        text=f"recorded {stored.id}: {stored.category} ({stored.status}) at {stored.file}:{stored.line}",
        data={"id": stored.id},
    )


def record(session: Session, finding: Finding) -> Finding:
    """Record a finding (guardrails apply) — the one path for every policy."""
    return session.protocol.record_finding(finding)


def _advance_stage(session: Session, a: AdvanceArgs) -> ToolResult:
    verdict: Verdict = a.verdict
    nxt = session.protocol.advance(verdict, a.reason)
    text = f"stage closed as {a.verdict}; " + (
        f"now at stage {int(nxt)} ({nxt.title})" if nxt else "every stage is closed; call finish"
    )
    s8 = session.protocol.stages[Stage.OPTIMIZATION]
    if nxt is None and s8.verdict == "not_examined":
        text += f". Stage 8 was not examined: {s8.reason}"
    return ToolResult(ok=True, text=text, data={"current": int(nxt) if nxt else None})


def _propose_experiment(session: Session, a: ExperimentArgs) -> ToolResult:
    exp = Experiment(
        kind=a.kind, description=a.description, distinguishes=a.distinguishes,
        information_value=a.information_value, finding_ids=a.finding_ids,
    )  # fmt: skip
    session.protocol.propose_experiment(exp)
    return ToolResult(ok=True, text=f"experiment recorded ({a.kind})")


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
        """The OpenAI tool-calling declaration."""
        params = self.args.model_json_schema()
        params.pop("title", None)
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }


TOOLS: tuple[Tool, ...] = (
    Tool("read_code", "Read numbered source of a file, a symbol (`file.py:Class.method`) or a line range (`file.py:10-60`), in a bounded window.", ReadCodeArgs, _read_code),
    Tool("search_code", "Search the repo's Python files for a regex or text; returns file:line (symbol): line.", SearchCodeArgs, _search_code),
    Tool("run_stage_checks", "Run the built-in checks of the current stage (static and runtime, with interventions) and record their checklist outcomes; returns the evidence and candidate findings.", StageArgs, _run_stage_checks),
    Tool("run_probe", "Run a Python snippet inside the sandbox with the repo's model, first batch, loss function and optimizer in scope; returns stdout, result and error.", ProbeArgs, _run_probe),
    Tool("record_finding", "Record a finding (a taxonomy category, location, evidence, why, smallest confirming test). `confirmed` needs runtime or intervention evidence.", RecordFindingArgs, _record_finding),
    Tool("advance_stage", "Close the current stage with a verdict (coherent, defect, inconclusive) and a reason, and open the next one.", AdvanceArgs, _advance_stage),
    Tool("propose_experiment", "Propose an experiment for section D. lr/architecture/optimizer/model_size/training_length kinds are refused until stages 1-7 are coherent.", ExperimentArgs, _propose_experiment),
    Tool("finish", "End the investigation once every stage is closed, naming the root-cause finding id (or null) with a short explanation.", FinishArgs, _finish),
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
        return ToolResult(ok=False, text=f"unknown tool {name!r}; tools: {', '.join(BY_NAME)}")
    try:
        args = tool.args.model_validate(arguments or {})
    except ValidationError as e:
        return ToolResult(ok=False, text=f"bad arguments for {name}: {validation_errors(e)}")
    try:
        return tool.handler(session, args)
    except Refused as r:
        return ToolResult(ok=False, text=str(r), refused=r.rule)
