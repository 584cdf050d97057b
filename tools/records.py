"""Records that cross a module, a process or reach the user: findings, stage results,
experiments and the report. Their JSON schema is versioned (`SCHEMA_VERSION`) and
printed by `investigate schema`.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from torch_investigate.tools.fix_records import Patch
from torch_investigate.tools.git_records import Commit, CommitDetail, FileChange, GitFacts  # noqa: F401 - re-exported
from torch_investigate.tools.intervention_effect import InterventionEffect, JSONValue
from torch_investigate.tools.taxonomy import OTHER, taxonomy

# Bump the major part when a field is removed or changes meaning; the minor part
# when fields are added.
SCHEMA_VERSION = "1.5"


class Stage(IntEnum):
    """The eight stages of the debugging protocol, in the order they must be walked."""

    SYMPTOM = 1
    DATA = 2
    FORWARD = 3
    LOSS = 4
    AUTOGRAD = 5
    OPTIMIZER = 6
    MODES = 7
    OPTIMIZATION = 8

    @property
    def title(self) -> str:
        return _STAGE_TITLES[self]


_STAGE_TITLES = {
    Stage.SYMPTOM: "Symptom",
    Stage.DATA: "Data",
    Stage.FORWARD: "Forward pass",
    Stage.LOSS: "Loss",
    Stage.AUTOGRAD: "Autograd",
    Stage.OPTIMIZER: "Optimizer update",
    Stage.MODES: "Train/eval modes and metrics",
    Stage.OPTIMIZATION: "Optimization choices",
}

Status = Literal["confirmed", "plausible", "refuted"]
Confidence = Literal["high", "medium", "low"]
Verdict = Literal["coherent", "defect", "inconclusive", "not_examined"]
Outcome = Literal["pending", "passed", "failed", "skipped", "not_applicable"]
# static: read from the code; runtime: seen while the training path ran; intervention: a
# run with one change compared with the baseline; probe: the output of a snippet run in
# the sandbox; model: a policy's own words (reasoning, never proof).
EvidenceSource = Literal["static", "runtime", "intervention", "probe", "model"]
DYNAMIC_SOURCES: frozenset[str] = frozenset({"runtime", "intervention", "probe"})

# Experiment kinds that change optimization choices. Guardrails refuse them (as
# experiments or as advice) until stages 1-7 are coherent.
OPTIMIZATION_KINDS: frozenset[str] = frozenset(
    {
        "lr",
        "architecture",
        "optimizer",
        "model_size",
        "training_length",
        "initialization",
        "batch_size",
        "regularization",
    }
)
ExperimentKind = Literal[
    "correctness_check",
    "fix_confirmation",
    "data_check",
    "probe",
    "lr",
    "architecture",
    "optimizer",
    "model_size",
    "training_length",
    "initialization",
    "batch_size",
    "regularization",
]


class Location(BaseModel):
    file: str  # relative to the repo root, forward slashes
    line: int | None = None
    symbol: str | None = None  # `Net.forward`, `train_one_epoch`, `<module>`

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where} ({self.symbol})" if self.symbol else where


_EFFECT_KEYS = frozenset(InterventionEffect.model_fields)


_ITEM_KEYS = frozenset({"item", "outcome"})


class ItemCheck(BaseModel):
    """A checklist item's outcome that an observation records (a stage's checks run by a
    policy, or `check_item`): a passed item is evidence of health, not of a defect."""

    item: str
    outcome: Outcome

    @property
    def shows_health(self) -> bool:
        return self.outcome in ("passed", "skipped", "not_applicable")


class Observation(BaseModel):
    """One piece of evidence: what was seen, with its numbers.

    `static` is read from the code; `runtime` was observed while the repo's own
    training path ran; `intervention` compares a run with one change applied; `probe` is
    a snippet's output from the sandbox; `model` is a policy's own words. `id` is issued
    by the investigation's evidence log (E1, E2, ...): a confirmed finding must cite
    dynamic observations the log issued, so no policy can confirm with words.
    """

    id: str = ""
    source: EvidenceSource
    text: str
    values: dict[str, JSONValue] = Field(default_factory=dict)
    where: Location | None = None
    # An intervention's comparison, typed. The JSON writes it into `values` under the same
    # keys as ever (the schema is unchanged), and reading a report back restores it.
    effect: SkipJsonSchema[InterventionEffect | None] = Field(default=None, exclude=True)
    # The checklist outcome it records, typed; written into `values` as `item`/`outcome`.
    checked: SkipJsonSchema[ItemCheck | None] = Field(default=None, exclude=True)

    @property
    def shows_a_defect(self) -> bool:
        """Dynamic, and not a checklist item that passed (or was not checked): whatever a
        policy cites it for, such an observation is evidence of health."""
        return self.is_dynamic and (self.checked is None or not self.checked.shows_health)

    @property
    def is_dynamic(self) -> bool:
        return self.source in DYNAMIC_SOURCES

    @property
    def reported_values(self) -> dict[str, JSONValue]:
        """Every number the report states for it: the effect's, the item's, the others."""
        out = {**self.effect.as_values(), **self.values} if self.effect else self.values
        return {**self.checked.model_dump(), **out} if self.checked else out

    @model_validator(mode="before")
    @classmethod
    def _effect_from_values(cls, data: Any) -> Any:
        """A report read back: the comparison's keys in `values` become the typed effect."""
        if not isinstance(data, dict):
            return data
        values = data.get("values")
        if data.get("checked") is None and isinstance(values, dict) and _ITEM_KEYS <= set(values):
            checked = {k: values[k] for k in _ITEM_KEYS}
            values = {k: v for k, v in values.items() if k not in _ITEM_KEYS}
            data = {**data, "values": values, "checked": checked}
        if data.get("effect") is not None:
            return data
        if data.get("source") != "intervention" or not isinstance(values, dict):
            return data
        if "relative_improvement" not in values or "improved" not in values:
            return data
        effect = {k: v for k, v in values.items() if k in _EFFECT_KEYS}
        rest = {k: v for k, v in values.items() if k not in _EFFECT_KEYS}
        return {**data, "values": rest, "effect": effect}

    @model_serializer(mode="wrap")
    def _effect_into_values(self, handler: SerializerFunctionWrapHandler) -> Any:
        out = handler(self)
        if self.effect is not None and isinstance(out, dict) and "values" in out:
            out["values"] = {**self.effect.as_values(), **out["values"]}
        if self.checked is not None and isinstance(out, dict) and "values" in out:
            out["values"] = {**self.checked.model_dump(), **out["values"]}
        return out


def merged_evidence(*groups: list[Observation]) -> list[Observation]:
    """Observations of several lists in order, each logged observation (by id) once."""
    seen: set[str] = set()
    out: list[Observation] = []
    for obs in (o for g in groups for o in g):
        if obs.id and obs.id in seen:
            continue
        seen.add(obs.id)
        out.append(obs)
    return out


def category_enum(schema: dict[str, Any]) -> None:
    """A category field's schema lists the taxonomy's ids (read when the schema is made),
    so a model and a reader name a defect as the reports do."""
    schema["enum"] = [*taxonomy().ids(), OTHER]


class Revision(BaseModel):
    """A change of a recorded finding's status (or its evidence) after it was recorded:
    who made it, from what to what, on which observations (engine-issued ids) and why."""

    by: str  # the policy: planner, review:<model>, llm:<model>, chat
    status_from: Status
    status_to: Status
    evidence_ids: list[str] = Field(default_factory=list)
    note: str = ""  # the policy's reasoning (never evidence)


class Finding(BaseModel):
    model_config = ConfigDict(validate_assignment=True)

    id: str = ""  # assigned by the ledger: F1, F2, ...
    category: str = Field(json_schema_extra=category_enum)
    title: str = ""  # defaults to the taxonomy title; required for `other`
    stage: Stage
    status: Status
    confidence: Confidence
    file: str | None = None
    symbol: str | None = None
    line: int | None = None
    evidence: list[Observation]
    why: str
    confirm: str  # the smallest test or change that confirms it
    detector: str = ""  # the check that produced it, e.g. `static.softmax_before_ce`
    recorded_by: str = ""  # the policy that recorded it: planner, review:<model>, llm:<model>, chat
    notes: str = ""  # the recording policy's reasoning: never evidence, never an observation
    # the policy that last changed its status after it was recorded ("" when none did), and
    # every revision (a status change, or evidence added), oldest first
    revised_by: str = ""
    revisions: list[Revision] = Field(default_factory=list)

    @field_validator("category")
    @classmethod
    def _known_category(cls, v: str) -> str:
        if v != OTHER and not taxonomy().has_category(v):
            raise ValueError(f"unknown category {v!r}: use a taxonomy id or 'other'")
        return v

    @model_validator(mode="after")
    def _title(self) -> Finding:
        if not self.title:
            if self.category == OTHER:
                raise ValueError("a finding of category 'other' needs a title")
            # object.__setattr__ avoids re-running validation on assignment
            object.__setattr__(self, "title", taxonomy().category(self.category).title)
        return self

    @property
    def location(self) -> Location | None:
        if self.file is None:
            return None
        return Location(file=self.file, line=self.line, symbol=self.symbol)

    @property
    def has_runtime_evidence(self) -> bool:
        return any(o.is_dynamic for o in self.evidence)

    def supporting(self) -> list[Observation]:
        """The evidence for the status as it now stands: since the last revision that set
        the status, the observations that revision and the later ones cited (an
        observation that refuted the finding before a review confirmed it does not
        support the confirmation); with no such revision, all of it."""
        since = None
        for i, r in enumerate(self.revisions):
            if r.status_from != r.status_to:
                since = i
        if since is None:
            return list(self.evidence)
        ids = [e for r in self.revisions[since:] for e in r.evidence_ids]
        by_id = {o.id: o for o in self.evidence if o.id}
        return [by_id[e] for e in dict.fromkeys(ids) if e in by_id]


class CheckItem(BaseModel):
    """One piece of evidence a stage must gather before it may end."""

    id: str
    description: str
    dynamic: bool  # needs the training path to run
    outcome: Outcome = "pending"
    detail: str = ""  # the evidence (passed/failed) or the reason (skipped/not_applicable)
    evidence_ids: list[str] = Field(default_factory=list)  # observations that decided it
    # not_applicable because the test could not tell here (a probe may still settle it)
    untested: bool = False


class StageResult(BaseModel):
    stage: Stage
    title: str = ""
    verdict: Verdict | None = None  # None while the stage is open
    checklist: list[CheckItem]
    reason: str = ""
    finding_ids: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _title(self) -> StageResult:
        if not self.title:
            object.__setattr__(self, "title", self.stage.title)
        return self


class Experiment(BaseModel):
    id: str = ""  # X1, X2, ... assigned when proposed
    kind: ExperimentKind
    description: str
    distinguishes: str  # which hypotheses its outcome separates
    order: int = 0  # 1 = run first; assigned by information value
    finding_ids: list[str] = Field(default_factory=list)
    information_value: float = 0.0  # 0..1, higher first


class NotYet(BaseModel):
    """A change not to attempt yet, tied to the open problem it would mask."""

    change: str
    kind: ExperimentKind
    reason: str
    blocked_by: list[str] = Field(default_factory=list)  # finding ids


class CommandInfo(BaseModel):
    argv: list[str]  # without the interpreter: ["train.py", "--epochs", "3"] or ["-m", "pkg.train"]
    source: (
        str  # "--cmd", "README.md:14", "pyproject [project.scripts]", "Makefile:train", "train.py"
    )
    reason: str
    candidates: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)  # e.g. PYTHONPATH=src for a src layout
    interpreter: str | None = None  # an explicit interpreter given with --cmd
    # Python commands run once before training, in the run's copy (make prerequisites
    # that build the data): argv lists without the interpreter
    setup: list[list[str]] = Field(default_factory=list)
    # Python commands the chain runs after the training command (`&& python evaluate.py`),
    # traced in the same run once training ended
    then: list[list[str]] = Field(default_factory=list)


class RunSummary(BaseModel):
    """One execution of the training path (baseline or with an intervention)."""

    label: str  # "baseline", "zero_grad_before_backward", ...
    interventions: list[str] = Field(default_factory=list)
    status: str  # completed | stopped | crashed | timeout | oom | network_blocked | ...
    steps: int = 0
    wall_s: float = 0.0
    losses: list[float | None] = Field(
        default_factory=list
    )  # per optimizer step; None = non-finite
    message: str = ""
    # The statistics the report's texts state (agent/core/curves.py), from the full curve:
    first_loss: float | None = None  # the first recorded finite loss
    # the median of the last tenth of the finite losses (at least 5); for a run compared
    # with the baseline, over the compared steps only
    settled_loss: float | None = None
    # a run with an intervention: the steps compared with the run as written (the
    # shorter curve), and the run as written settled over those same steps
    compared_steps: int | None = None
    baseline_settled_loss: float | None = None


class LayerStat(BaseModel):
    name: str
    grad_norm: float | None = None
    weight_norm: float | None = None
    update_ratio: float | None = None  # |delta w| / |w| per step


class LLMUsage(BaseModel):
    model: str
    steps: int = 0  # model requests
    prompt_tokens: int = 0  # every request's, the tool schemas included
    schema_tokens: int = 0  # about this many of each request's prompt tokens are tool schemas
    completion_tokens: int = 0
    cost_usd: float | None = None
    refusals: int = 0
    stop_reason: str = ""  # why the model's run ended: finished, a bound, the endpoint


class SummaryFinding(BaseModel):
    """A finding as the summary names it."""

    id: str
    category: str
    title: str
    file: str | None = None
    line: int | None = None
    symbol: str | None = None
    why: str
    evidence: list[str] = Field(default_factory=list)  # ids of its dynamic observations


SummaryVerdict = Literal["root_cause", "defects_found", "no_defect_found", "inconclusive"]


class Summary(BaseModel):
    """The answer, said first in every format.

    `root_cause` is set only for a confirmed root cause (verdict `root_cause`); a
    suspicion that nothing confirmed is `suspected`, never the root cause. `confirming`
    is the observation that confirms the root cause, with its number: the intervention's
    effect on the loss, or the runtime observation when no intervention changed it.
    """

    verdict: SummaryVerdict
    headline: str  # one line: the answer
    root_cause: SummaryFinding | None = None
    confirming: str = ""
    confirming_id: str = ""  # the observation `confirming` quotes
    suspected: SummaryFinding | None = None  # the strongest unconfirmed suspicion (section C)
    reason: str = ""  # why no root cause is confirmed


class Report(BaseModel):
    # The answer, first: what `| head` shows (filled when the report is built).
    summary: Summary | None = None
    schema_version: str = SCHEMA_VERSION
    tool_version: str = ""
    created_at: str = ""
    repo: str
    git: GitFacts | None = None
    command: CommandInfo | None = None
    command_note: str = ""  # why no command ran, when none did
    policy: str = "planner"
    symptom: str | None = None  # a taxonomy symptom id
    symptom_evidence: str = ""
    stages: list[StageResult]
    findings: list[Finding]
    root_cause: str | None = None  # a finding id
    root_cause_explanation: str = ""
    conclusion: Literal["defects_found", "no_defect_found", "inconclusive"]
    conclusion_reason: str = ""
    experiments: list[Experiment] = Field(default_factory=list)
    not_yet: list[NotYet] = Field(default_factory=list)
    isolation: str = "none"  # bwrap | unshare | socket-guard | none (static only)
    runs: list[RunSummary] = Field(default_factory=list)
    gradient_flow: list[LayerStat] = Field(default_factory=list)
    timings: dict[str, float] = Field(default_factory=dict)  # seconds per phase, and "total"
    llm: LLMUsage | None = None
    notes: list[str] = Field(default_factory=list)
    summary: Summary | None = None  # the answer; filled when the report is built
    # `investigate fix`: a source patch per confirmed finding (tools/fix_records.py)
    patches: list[Patch] = Field(default_factory=list)

    @field_validator("symptom")
    @classmethod
    def _known_symptom(cls, v: str | None) -> str | None:
        if v is not None and not taxonomy().has_symptom(v):
            raise ValueError(f"unknown symptom {v!r}")
        return v

    def finding(self, finding_id: str) -> Finding | None:
        return next((f for f in self.findings if f.id == finding_id), None)


def report_json_schema() -> dict[str, Any]:
    schema = Report.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://torch-investigate.dev/schema/report-{SCHEMA_VERSION}.json"
    return schema
